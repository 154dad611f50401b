import { contrastRatio, flatten, parseColor } from './contrast';

describe('contrast ratio (WCAG 2)', () => {
  it('black on white is 21:1, a colour on itself 1:1, and the order does not matter', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBeCloseTo(1, 5);
    expect(contrastRatio('#fff', '#0958d9')).toBeCloseTo(contrastRatio('#0958d9', '#fff'), 10);
  });

  it('known values: #767676 on white is the 4.5:1 threshold, antd’s #1677ff 4.1:1', () => {
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#ffffff', '#1677ff')).toBeCloseTo(4.1, 1);
  });

  it('a translucent colour is laid over what is under it', () => {
    expect(flatten('rgba(255, 255, 255, 0.5)', '#000000')).toEqual([127.5, 127.5, 127.5]);
    expect(contrastRatio('rgba(0,0,0,0.88)', '#fff')).toBeGreaterThan(15);
    expect(contrastRatio('rgba(255,255,255,0.04)', '#141414', '#141414')).toBeCloseTo(1, 0);
  });

  it('parses #rgb, #rrggbb, #rrggbbaa, rgb() and rgba(); refuses anything else', () => {
    expect(parseColor('#abc')).toEqual([170, 187, 204, 1]);
    expect(parseColor('#4169E1')).toEqual([65, 105, 225, 1]);
    expect(parseColor('#00000080')[3]).toBeCloseTo(0.5, 2);
    expect(parseColor('rgb(1, 2, 3)')).toEqual([1, 2, 3, 1]);
    expect(parseColor('rgba(1,2,3,0.25)')).toEqual([1, 2, 3, 0.25]);
    expect(() => parseColor('purple')).toThrow('not a colour');
  });
});
