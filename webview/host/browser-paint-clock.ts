/** The page's own frames and timers, for after-paint.ts (which tests drive by hand). */
import type { PaintClock } from './after-paint';

export const BROWSER_PAINT_CLOCK: PaintClock = {
  frame: (callback) => void requestAnimationFrame(callback),
  timer: (callback, ms) => {
    const id = setTimeout(callback, ms);
    return () => clearTimeout(id);
  },
};
