import { Transform } from "node:stream";

const HEAD_END = "</head>";
const MODULE_PRELOAD = /<link rel="modulepreload"/g;

/**
 * Marks the page's script preloads `fetchpriority="low"`, in the head only. React Router preloads
 * every module a page with scripts needs (about 160 KB on the map pages), and a browser fetches
 * them at high priority, beside the stylesheet and before images: on a slow line the first paint
 * then waits for scripts it does not need. At low priority they are still fetched at once and in
 * parallel, after what the page shows. React Router's `<Scripts>` has no way to say so itself.
 */
export function lowPriorityScriptPreloads(): Transform {
  let held: Buffer[] = [];
  let inHead = true;
  return new Transform({
    transform(chunk: Buffer, _encoding, next) {
      if (!inHead) return next(null, chunk);
      // The head is small and comes first; it is held until it is whole. Bytes, not text: a
      // chunk may end inside a character.
      held.push(chunk);
      const whole = Buffer.concat(held);
      const end = whole.indexOf(HEAD_END);
      if (end < 0) {
        held = [whole];
        return next();
      }
      inHead = false;
      held = [];
      const head = whole
        .subarray(0, end)
        .toString("utf8")
        .replace(MODULE_PRELOAD, '<link rel="modulepreload" fetchpriority="low"');
      next(null, Buffer.concat([Buffer.from(head, "utf8"), whole.subarray(end)]));
    },
    flush(next) {
      next(null, held.length ? Buffer.concat(held) : null);
    },
  });
}
