import { describe, expect, it } from 'vitest';
import { describeJson, rareValues } from './json-fields.js';

describe('describeJson', () => {
  it('records types, categories, ranges and keys per path, items merged', () => {
    const records = Array.from({ length: 300 }, (_, index) => ({
      sex: index === 200 ? '.' : index % 2 ? 'MALE' : 'FEMALE',
      mass: 3000 + index,
      ok: index !== 7,
    }));
    const root = describeJson(records);
    const items = root.items;
    expect(root.arrays).toEqual({ min: 300, max: 300, cut: false });
    expect(items?.objects).toBe(300);
    const sex = items?.children.get('sex');
    expect(sex && rareValues(sex)).toEqual(['.']);
    expect(items?.children.get('mass')).toMatchObject({ min: 3000, max: 3299 });
    const ok = items?.children.get('ok');
    expect(ok && rareValues(ok)).toEqual([false]);
  });

  it('reads at most sampleItems items and maxKeys keys, and stops categories past maxCategories', () => {
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`k${index}`, index]));
    const root = describeJson(
      [wide, ...Array.from({ length: 50 }, (_, index) => ({ k0: `v${index}` }))],
      new Set(),
      {
        sampleItems: 20,
        maxKeys: 4,
        maxCategories: 5,
      },
    );
    expect(root.items?.seen).toBe(20);
    expect([...(root.items?.children.keys() ?? [])]).toEqual(['k0', 'k1', 'k2', 'k3']);
    expect(root.items?.keyCount).toBe(10);
    expect(root.items?.children.get('k0')?.strings).toBeNull();
  });
});
