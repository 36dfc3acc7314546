/**
 * The assistant's curated answers to common advertising questions, in English and Thai. Each entry is found by its
 * keywords (either language); a question that matches none gets a plain "I don't know".
 */
export interface KnowledgeEntry {
  id: string;
  keywords: string[];
  en: string;
  th: string;
}

export const KNOWLEDGE_BASE: readonly KnowledgeEntry[] = [
  {
    id: 'ctr',
    keywords: ['ctr', 'click-through', 'click through', 'clickthrough', 'อัตราการคลิก', 'คนคลิกน้อย', 'คลิกน้อย'],
    en: 'CTR (click-through rate) is clicks ÷ impressions × 100. Across Meta feed ads about 0.9% is typical and 1.5% or more is strong.\nTo raise it:\n- Put the hook in the first line and the first second of video.\n- Show the product in use, not a logo.\n- Narrow the audience to people who already care.\n- Test 3–5 creatives at once and keep the winners.',
    th: 'CTR (อัตราการคลิก) คือ จำนวนคลิก ÷ จำนวนการแสดงผล × 100 สำหรับโฆษณาบนฟีดของ Meta ประมาณ 0.9% ถือว่าปกติ และตั้งแต่ 1.5% ขึ้นไปถือว่าดี\nวิธีเพิ่ม CTR:\n- ใส่จุดดึงดูดไว้ในบรรทัดแรกและวินาทีแรกของวิดีโอ\n- แสดงสินค้าขณะใช้งานจริง ไม่ใช่แค่โลโก้\n- จำกัดกลุ่มเป้าหมายให้ตรงกับคนที่สนใจจริง\n- ทดสอบครีเอทีฟ 3–5 ชิ้นพร้อมกันแล้วเก็บชิ้นที่ดีที่สุด',
  },
  {
    id: 'cpc',
    keywords: ['cpc', 'cost per click', 'ต้นทุนต่อคลิก', 'ค่าคลิก'],
    en: 'CPC (cost per click) is spend ÷ clicks. It falls when CTR rises, because the platform rewards ads people engage with. Broad placements (Advantage+ placements) and a wider audience usually lower it too. Judge CPC together with the conversion rate: cheap clicks that never buy are not a bargain.',
    th: 'CPC (ต้นทุนต่อคลิก) คือ ค่าใช้จ่าย ÷ จำนวนคลิก จะลดลงเมื่อ CTR สูงขึ้น เพราะแพลตฟอร์มให้รางวัลกับโฆษณาที่คนมีส่วนร่วม การเปิดตำแหน่งการแสดงผลแบบกว้างและขยายกลุ่มเป้าหมายก็ช่วยลด CPC ได้ ควรดู CPC คู่กับอัตราการเกิดคอนเวอร์ชัน คลิกราคาถูกที่ไม่ซื้อไม่ได้คุ้มค่าจริง',
  },
  {
    id: 'cpm',
    keywords: ['cpm', 'cost per mille', 'cost per 1000', 'cost per thousand', 'ต้นทุนต่อพัน', 'ค่า cpm'],
    en: 'CPM is spend per 1,000 impressions. It rises with competition (Q4, sales days), narrow audiences and low-quality ads. To lower it: widen the audience, use more placements, and improve the ad quality ranking with more engaging creative.',
    th: 'CPM คือ ค่าใช้จ่ายต่อการแสดงผล 1,000 ครั้ง จะสูงขึ้นเมื่อมีการแข่งขันมาก (ช่วงปลายปี วันเซลล์) กลุ่มเป้าหมายแคบ หรือโฆษณาคุณภาพต่ำ วิธีลด: ขยายกลุ่มเป้าหมาย เปิดตำแหน่งการแสดงผลเพิ่ม และทำครีเอทีฟที่มีส่วนร่วมมากขึ้นเพื่อเพิ่มคะแนนคุณภาพ',
  },
  {
    id: 'cpa',
    keywords: [
      'cpa',
      'cost per acquisition',
      'cost per result',
      'cost per conversion',
      'ต้นทุนต่อผลลัพธ์',
      'ต้นทุนต่อการซื้อ',
      'ต้นทุนต่อคอนเวอร์ชัน',
    ],
    en: 'CPA (cost per acquisition) is spend ÷ conversions. Keep it well under your profit per order; a common ceiling is half the average order value. To lower it:\n- Optimise the ad set for the conversion you want (purchase, not clicks).\n- Fix the landing page: speed and a clear offer matter as much as the ad.\n- Pause ads whose CPA stays above target after enough spend (an AdPilot rule can do this).',
    th: 'CPA (ต้นทุนต่อผลลัพธ์) คือ ค่าใช้จ่าย ÷ จำนวนคอนเวอร์ชัน ควรต่ำกว่ากำไรต่อออเดอร์พอสมควร เพดานที่นิยมคือครึ่งหนึ่งของยอดสั่งซื้อเฉลี่ย วิธีลด CPA:\n- ตั้งการเพิ่มประสิทธิภาพชุดโฆษณาให้ตรงกับผลลัพธ์ที่ต้องการ (การซื้อ ไม่ใช่คลิก)\n- ปรับหน้าแลนดิ้งเพจให้โหลดเร็วและข้อเสนอชัดเจน\n- หยุดโฆษณาที่ CPA สูงกว่าเป้าหลังใช้งบพอสมควร (ตั้งกฎใน AdPilot ให้ทำอัตโนมัติได้)',
  },
  {
    id: 'roas',
    keywords: ['roas', 'return on ad spend', 'ผลตอบแทนจากค่าโฆษณา', 'ผลตอบแทน'],
    en: 'ROAS (return on ad spend) is conversion value ÷ spend. Below 1 you lose money on ads alone; most businesses need 2–3 or more to profit after product costs. Work out your break-even ROAS as 1 ÷ your gross margin (40% margin → 2.5).',
    th: 'ROAS (ผลตอบแทนจากค่าโฆษณา) คือ ยอดขายจากโฆษณา ÷ ค่าใช้จ่าย ถ้าต่ำกว่า 1 แปลว่าขาดทุนจากค่าโฆษณา ธุรกิจส่วนใหญ่ต้องการ 2–3 ขึ้นไปจึงจะมีกำไรหลังหักต้นทุนสินค้า คำนวณ ROAS จุดคุ้มทุนได้จาก 1 ÷ อัตรากำไรขั้นต้น (กำไร 40% → 2.5)',
  },
  {
    id: 'frequency',
    keywords: ['frequency', 'ad fatigue', 'fatigue', 'ความถี่', 'โฆษณาซ้ำ', 'เห็นโฆษณาซ้ำ'],
    en: 'Frequency is impressions ÷ reach: how often each person saw the ad. Above about 3 in a week, CTR usually drops and costs rise (ad fatigue). Refresh the creative, widen the audience, or exclude people who already converted.',
    th: 'ความถี่ คือ จำนวนการแสดงผล ÷ จำนวนคนที่เข้าถึง หรือแต่ละคนเห็นโฆษณากี่ครั้ง ถ้าเกินประมาณ 3 ครั้งต่อสัปดาห์ CTR มักลดลงและต้นทุนสูงขึ้น (โฆษณาล้า) ควรเปลี่ยนครีเอทีฟ ขยายกลุ่มเป้าหมาย หรือตัดคนที่ซื้อแล้วออก',
  },
  {
    id: 'scaling',
    keywords: ['scale', 'scaling', 'increase budget', 'raise budget', 'budget increase', 'เพิ่มงบ', 'สเกล', 'ขยายงบ'],
    en: 'Scale a winning ad set gradually: raise the budget by about 20% at most every 2–3 days, so delivery does not restart learning. For bigger jumps, duplicate the ad set with the higher budget and keep the original running. An AdPilot rule can raise the budget when ROAS stays above your target, with a ceiling and a 24-hour cooldown.',
    th: 'การสเกลชุดโฆษณาที่ได้ผลดีควรค่อย ๆ ทำ: เพิ่มงบไม่เกินประมาณ 20% ทุก 2–3 วัน เพื่อไม่ให้ระบบกลับไปเริ่มช่วงเรียนรู้ใหม่ ถ้าต้องการเพิ่มมาก ให้ทำสำเนาชุดโฆษณาด้วยงบที่สูงขึ้นและคงชุดเดิมไว้ กฎใน AdPilot สามารถเพิ่มงบเมื่อ ROAS สูงกว่าเป้าได้ โดยมีเพดานงบและระยะพัก 24 ชั่วโมง',
  },
  {
    id: 'learning',
    keywords: ['learning phase', 'learning limited', 'ช่วงเรียนรู้', 'การเรียนรู้'],
    en: 'The learning phase is the period after launch or a significant edit while Meta explores delivery. It ends after about 50 optimisation events in 7 days. Avoid big edits during it; if an ad set stays "Learning limited", merge ad sets or optimise for a more frequent event.',
    th: 'ช่วงเรียนรู้คือช่วงหลังเปิดโฆษณาหรือแก้ไขครั้งใหญ่ที่ Meta กำลังทดลองการแสดงผล จะจบเมื่อได้ผลลัพธ์ประมาณ 50 ครั้งภายใน 7 วัน อย่าแก้ไขมากในช่วงนี้ ถ้าขึ้นว่า "การเรียนรู้จำกัด" ให้รวมชุดโฆษณาหรือเลือกเหตุการณ์ที่เกิดบ่อยขึ้น',
  },
  {
    id: 'audience',
    keywords: ['audience', 'targeting', 'lookalike', 'interest', 'กลุ่มเป้าหมาย', 'การกำหนดเป้าหมาย', 'ลุคอะไลค์'],
    en: 'Start broad with a strong creative and let the algorithm find buyers; add interests only when the product is niche. Lookalike audiences from your best customers (1–3%) are a reliable second test. Always exclude recent purchasers from prospecting.',
    th: 'เริ่มจากกลุ่มเป้าหมายกว้างพร้อมครีเอทีฟที่ดี แล้วให้อัลกอริทึมหาคนซื้อเอง ใส่ความสนใจเฉพาะเมื่อสินค้าเป็นกลุ่มเฉพาะ กลุ่มเป้าหมายคล้ายคลึง (Lookalike) 1–3% จากลูกค้าที่ดีที่สุดเป็นการทดสอบที่ได้ผล และควรตัดคนที่เพิ่งซื้อออกจากแคมเปญหาลูกค้าใหม่เสมอ',
  },
  {
    id: 'testing',
    keywords: ['a/b', 'ab test', 'split test', 'test ads', 'testing', 'ทดสอบ', 'เอบีเทสต์'],
    en: "Test one variable at a time (creative, audience or offer) with enough budget for each version to reach about 50 conversions or a few thousand impressions before judging. Keep the winner, then test against it. Meta's A/B test tool splits audiences so the versions do not overlap.",
    th: 'ทดสอบทีละตัวแปร (ครีเอทีฟ กลุ่มเป้าหมาย หรือข้อเสนอ) และให้งบพอที่แต่ละเวอร์ชันจะได้ประมาณ 50 คอนเวอร์ชัน หรือการแสดงผลหลายพันครั้งก่อนตัดสิน เก็บตัวที่ชนะแล้วทดสอบกับตัวใหม่ต่อ เครื่องมือ A/B Test ของ Meta แบ่งกลุ่มเป้าหมายไม่ให้ทับซ้อนกัน',
  },
  {
    id: 'creative',
    keywords: ['creative', 'image', 'video', 'ad design', 'ครีเอทีฟ', 'รูปภาพ', 'วิดีโอ', 'ภาพโฆษณา'],
    en: 'Good creative matters more than targeting today. Use vertical video (9:16) for Reels and Stories, show the product in the first 3 seconds, add captions (most people watch muted) and one clear call to action. Refresh creative every 2–4 weeks or when frequency passes 3.',
    th: 'ครีเอทีฟสำคัญกว่าการกำหนดเป้าหมายในปัจจุบัน ใช้วิดีโอแนวตั้ง (9:16) สำหรับ Reels และ Stories แสดงสินค้าใน 3 วินาทีแรก ใส่คำบรรยาย (คนส่วนใหญ่ดูแบบปิดเสียง) และมีคำกระตุ้นให้ลงมือทำเพียงข้อเดียว เปลี่ยนครีเอทีฟทุก 2–4 สัปดาห์ หรือเมื่อความถี่เกิน 3',
  },
  {
    id: 'retargeting',
    keywords: ['retarget', 'retargeting', 'remarketing', 'abandoned cart', 'รีทาร์เก็ต', 'รีมาร์เก็ตติ้ง', 'ตะกร้า'],
    en: 'Retargeting shows ads to people who visited your site, engaged with your page or added to cart. Keep windows short (7–30 days), cap frequency, and offer a reason to return (free shipping, reviews). Exclude buyers so you do not pay to reach them again.',
    th: 'การรีทาร์เก็ตคือการแสดงโฆษณากับคนที่เคยเข้าเว็บไซต์ มีส่วนร่วมกับเพจ หรือใส่สินค้าลงตะกร้า ควรใช้ช่วงเวลาสั้น (7–30 วัน) คุมความถี่ และให้เหตุผลที่จะกลับมา (ส่งฟรี รีวิว) รวมถึงตัดคนที่ซื้อแล้วออกเพื่อไม่ต้องจ่ายเงินเข้าถึงซ้ำ',
  },
  {
    id: 'tracking',
    keywords: ['pixel', 'conversions api', 'capi', 'tracking', 'พิกเซล', 'การติดตาม', 'ติดตามคอนเวอร์ชัน'],
    en: 'Conversion tracking needs the Meta Pixel on your site and, ideally, the Conversions API from your server, so purchases are counted even when browsers block cookies. Check in Events Manager that Purchase events arrive with a value and currency; without them ROAS cannot be measured.',
    th: 'การติดตามคอนเวอร์ชันต้องติดตั้ง Meta Pixel บนเว็บไซต์ และควรใช้ Conversions API จากเซิร์ฟเวอร์ด้วย เพื่อให้นับการซื้อได้แม้เบราว์เซอร์บล็อกคุกกี้ ตรวจใน Events Manager ว่าเหตุการณ์ Purchase ส่งมูลค่าและสกุลเงินมาด้วย ไม่เช่นนั้นจะวัด ROAS ไม่ได้',
  },
  {
    id: 'budget',
    keywords: [
      'budget',
      'how much to spend',
      'daily budget',
      'cbo',
      'campaign budget',
      'งบประมาณ',
      'งบโฆษณา',
      'ควรใช้งบเท่าไหร่',
    ],
    en: 'Set a daily budget of at least 5–10 times your target CPA per ad set, so it can reach about 50 conversions a week. Campaign budget (Advantage campaign budget) lets Meta move money to the best ad sets; ad set budgets give you more control while testing.',
    th: 'ตั้งงบรายวันอย่างน้อย 5–10 เท่าของ CPA เป้าหมายต่อชุดโฆษณา เพื่อให้ได้ประมาณ 50 คอนเวอร์ชันต่อสัปดาห์ งบระดับแคมเปญ (Advantage campaign budget) ให้ Meta ย้ายเงินไปยังชุดโฆษณาที่ดีที่สุด ส่วนงบระดับชุดโฆษณาช่วยให้ควบคุมได้มากกว่าในช่วงทดสอบ',
  },
  {
    id: 'pause',
    keywords: ['when to pause', 'turn off', 'stop an ad', 'kill an ad', 'pause', 'ควรปิด', 'หยุดโฆษณา', 'ปิดโฆษณา'],
    en: 'Give an ad enough data before judging: roughly 2–3 times your target CPA in spend, or a few thousand impressions. Then pause it if CPA stays above target or CTR is far below the account average. An AdPilot rule such as "pause ads with CPA over 500 in the last 7 days" does this for you, with a minimum-spend safeguard.',
    th: 'ให้โฆษณามีข้อมูลพอก่อนตัดสิน: ใช้งบประมาณ 2–3 เท่าของ CPA เป้าหมาย หรือแสดงผลหลายพันครั้ง จากนั้นจึงหยุดถ้า CPA ยังสูงกว่าเป้า หรือ CTR ต่ำกว่าค่าเฉลี่ยของบัญชีมาก กฎใน AdPilot เช่น "หยุดโฆษณาที่ CPA เกิน 500 ใน 7 วันที่ผ่านมา" ทำให้อัตโนมัติได้ พร้อมเงื่อนไขงบขั้นต่ำ',
  },
  {
    id: 'adpilot-rules',
    keywords: ['rule', 'automation', 'automate', 'adpilot', 'กฎ', 'อัตโนมัติ'],
    en: 'AdPilot rules watch your ads every few minutes and act for you: pause, resume, raise or lower budgets, or notify you, when metrics such as CPA, ROAS, CTR or spend cross a threshold over a time window. Start from a template on the Rules page or type what you want in "Ask AI" in the rule builder; every rule can be previewed and backtested before you switch it on.',
    th: 'กฎของ AdPilot ตรวจโฆษณาทุกไม่กี่นาทีและทำงานแทนคุณ: หยุด เปิดต่อ เพิ่มหรือลดงบ หรือแจ้งเตือน เมื่อค่าเช่น CPA, ROAS, CTR หรือค่าใช้จ่าย เกินเกณฑ์ในช่วงเวลาที่กำหนด เริ่มจากเทมเพลตในหน้ากฎ หรือพิมพ์สิ่งที่ต้องการในช่อง "ถาม AI" ในตัวสร้างกฎ ทุกกฎดูตัวอย่างและทดสอบย้อนหลังได้ก่อนเปิดใช้',
  },
];

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** The best-matching entry (most keyword hits, longer keywords weigh more), or null when nothing matches. */
export function findAnswer(question: string): KnowledgeEntry | null {
  const text = normalize(question);
  let best: { entry: KnowledgeEntry; score: number } | null = null;
  for (const entry of KNOWLEDGE_BASE) {
    let score = 0;
    for (const keyword of entry.keywords) {
      const needle = normalize(keyword);
      const hit = /^[a-z/ -]+$/.test(needle)
        ? new RegExp(`\\b${needle}(s|es|ing)?\\b`).test(text)
        : text.includes(needle);
      if (hit) score += needle.length;
    }
    if (score > 0 && (!best || score > best.score)) best = { entry, score };
  }
  return best?.entry ?? null;
}
