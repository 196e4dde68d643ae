import { describe, expect, it } from 'vitest';
import { createFrequencySketch } from '../src/public/frequency-sketch.js';

describe('the frequency sketch of the link cache', () => {
  it('never estimates a key below its count, and keeps most keys apart', () => {
    const sketch = createFrequencySketch(1000);
    for (let i = 0; i < 1000; i++) for (let n = 0; n < i % 5; n++) sketch.add(`s.example/k${i}`);
    const exact = Array.from({ length: 1000 }, (_, i) => sketch.estimate(`s.example/k${i}`) === i % 5);
    for (let i = 0; i < 1000; i++) expect(sketch.estimate(`s.example/k${i}`)).toBeGreaterThanOrEqual(i % 5);
    expect(exact.filter(Boolean).length).toBeGreaterThan(950);
    expect(sketch.estimate('s.example/never')).toBeLessThanOrEqual(1);
  });

  it('stops at 16 and, once ten times its capacity were added, forgets the first requests and halves the rest', () => {
    const sketch = createFrequencySketch(10); // a window of 100 additions
    const agings: number[] = [];
    for (let n = 1; n <= 100; n++) if (sketch.add('hot')) agings.push(n);
    expect(agings).toEqual([100]);
    expect(sketch.estimate('hot')).toBe(7); // 1 + 15 before, 15 halved after
    sketch.add('hot');
    expect(sketch.estimate('hot')).toBe(8); // in the doorkeeper again
    for (let n = 0; n < 98; n++) sketch.add(`other${n}`);
    expect(sketch.add('cold')).toBe(true);
    expect(sketch.estimate('hot')).toBe(3);
  });

  it('counts keys asked for once in the doorkeeper only: they leave the counts of the others exact', () => {
    const sketch = createFrequencySketch(100); // a window of 1,000 additions
    for (let i = 0; i < 20; i++) for (let n = 0; n < 3; n++) sketch.add(`again${i}`);
    for (let i = 0; i < 900; i++) sketch.add(`once${i}`);
    const again = Array.from({ length: 20 }, (_, i) => sketch.estimate(`again${i}`));
    expect(again.filter((estimate) => estimate === 3).length).toBeGreaterThanOrEqual(19);
    const once = Array.from({ length: 900 }, (_, i) => sketch.estimate(`once${i}`));
    expect(once.filter((estimate) => estimate === 1).length).toBeGreaterThan(850);
  });
});
