import { describe, expect, it } from 'vitest';
import { unzip } from '../../test/zip-reader.ts';
import { crc32 } from '../../lib/zip.ts';
import { columnName, xlsx, xmlText } from './xlsx.ts';

describe('xlsx', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });

  it('names columns like a spreadsheet', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('escapes XML and drops characters XML cannot hold', () => {
    expect(xmlText(`a<b>&"c'\u0001`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });

  it('writes a package of the five parts with typed cells and Thai text intact', () => {
    const file = xlsx('2026-03-01 to 2026-03-31', [
      ['Name', 'Spend', 'CPA'],
      ['ร้านค้า <ไทย> & co', 1234.5, null],
      ['=SUM(A1)', 0, Number.NaN],
    ]);
    expect(file.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
    const parts = unzip(file, crc32);
    expect([...parts.keys()].sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(parts.get('xl/workbook.xml')).toContain('<sheet name="2026-03-01 to 2026-03-31" sheetId="1" r:id="rId1"/>');
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<c r="A1" s="1" t="inlineStr"><is><t xml:space="preserve">Name</t></is></c>');
    expect(sheet).toContain(
      '<c r="A2" t="inlineStr"><is><t xml:space="preserve">ร้านค้า &lt;ไทย&gt; &amp; co</t></is></c>',
    );
    expect(sheet).toContain('<c r="B2"><v>1234.5</v></c>');
    expect(sheet).toContain('<c r="B3"><v>0</v></c>');
    // Empty and non-finite numbers leave the cell out; text is never a formula (no <f>).
    expect(sheet).not.toContain('r="C2"');
    expect(sheet).not.toContain('r="C3"');
    expect(sheet).not.toContain('<f>');
  });
});
