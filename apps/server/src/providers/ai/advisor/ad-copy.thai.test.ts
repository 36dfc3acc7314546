import { generateAdCopyRequestSchema, PLATFORMS } from '@adpilot/contracts';
import { describe, expect, it } from 'vitest';
import { readProduct, writeAdCopy, writeThaiAdCopy } from './ad-copy.ts';

const THAI_TEXT = 'เค้กส้มสูตรโบราณ หอมส้มแท้ อบสดใหม่ทุกวัน ส่งฟรีในกรุงเทพ';

describe('Content Studio copy', () => {
  it('takes plain product text, and keeps the JSON message for broken JSON', () => {
    expect(generateAdCopyRequestSchema.parse({ productInfo: THAI_TEXT, platform: 'facebook' }).productInfo).toEqual({
      description: THAI_TEXT,
    });
    expect(generateAdCopyRequestSchema.safeParse({ productInfo: '{name:', platform: 'facebook' }).success).toBe(false);
  });

  it.each(PLATFORMS)('writes Thai copy wholly in Thai within the %s limits', (platform) => {
    const product = readProduct({ description: THAI_TEXT }, 'th');
    expect(product.name).toBe('เค้กส้มสูตรโบราณ');
    const variations = writeThaiAdCopy(product, platform);
    expect(variations).toHaveLength(3);
    for (const variation of variations) {
      const text = `${variation.headline ?? ''} ${variation.primaryText}`;
      // Not a Latin word of ours: "Discover", "Shop now" and the like never appear in Thai copy.
      expect(text).not.toMatch(/[A-Za-z]/);
      expect(text).toContain('เค้กส้ม');
    }
  });

  it('drops an English call to action from Thai copy, keeps a Thai one', () => {
    expect(readProduct({ name: 'เค้กส้ม', cta: 'Shop now' }, 'th').cta).toBe('สั่งซื้อเลย');
    expect(readProduct({ name: 'เค้กส้ม', cta: 'สั่งเลยวันนี้' }, 'th').cta).toBe('สั่งเลยวันนี้');
  });

  it('reads English plain text as a name and a benefit', () => {
    const product = readProduct({ description: 'Glow Serum - hydrates all day. 20% off this week' });
    expect(product.name).toBe('Glow Serum');
    const [first] = writeAdCopy(product, 'facebook');
    expect(first!.headline).toContain('Glow Serum');
  });
});
