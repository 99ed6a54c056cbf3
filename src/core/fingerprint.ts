/**
 * Pure helpers for the busy-but-stuck brakes (SPEC §4.10): the canonical form of a tool call's
 * arguments, and a reply's fingerprint as a short hash.
 * Strings in, strings out: no clock, no I/O, no imports.
 */

/** How deep canonical JSON follows nested objects before it writes a placeholder. */
const MAX_DEPTH = 64;

/**
 * JSON with the keys of every object sorted, at every level, so two calls with the same arguments in
 * another key order are the same call. Never throws: cycles, depth past 64, and values JSON has no
 * form for (functions, symbols, bigints, non-finite numbers) get fixed placeholders.
 */
export function canonicalJson(value: unknown): string {
  // The objects on the path from the root to the item being written (a cycle meets one of them again).
  const seen = new Set<unknown>();
  const write = (item: unknown, depth: number): string => {
    if (item === null) return "null";
    switch (typeof item) {
      case "string":
        return JSON.stringify(item);
      case "number":
        // JSON writes NaN and the infinities as null.
        return JSON.stringify(item);
      case "boolean":
        return item ? "true" : "false";
      case "undefined":
        return "null";
      case "object":
        break;
      default:
        return `"<${typeof item}>"`;
    }
    if (depth >= MAX_DEPTH || seen.has(item)) return '"<…>"';
    seen.add(item);
    let out: string;
    if (Array.isArray(item)) {
      out = `[${item.map((element) => write(element, depth + 1)).join(",")}]`;
    } else {
      const record = item as { readonly [key: string]: unknown };
      const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
      out = `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key], depth + 1)}`).join(",")}}`;
    }
    seen.delete(item);
    return out;
  };
  return write(value, 0);
}

/** 53 bits of a string (cyrb53), as 14 hex digits. */
function cyrb53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

/** A 106-bit hash of a string as 28 hex digits: enough that two different replies never meet. */
export function hashText(text: string): string {
  return cyrb53(text, 0) + cyrb53(text, 0x9e3779b9);
}

/** Folds one more part into a running fingerprint (parts in order; "" starts one). */
export function foldFingerprint(running: string, part: string): string {
  return hashText(`${running}\u0000${part}`);
}

/** The fingerprint part of one tool call: its name, canonical arguments and error flag. */
export function callPart(name: string, args: unknown, failed: boolean): string {
  return `call\u0000${name}\u0000${canonicalJson(args)}\u0000${failed ? "error" : "ok"}`;
}

/** The fingerprint part of a reply's final text: its text blocks with whitespace collapsed. */
export function textPart(texts: readonly string[]): string {
  return `text\u0000${texts.join(" ").replace(/\s+/g, " ").trim()}`;
}

/**
 * A hash of what a call gave back (SPEC §4.10, 0.4: progress is new information): its content and its
 * error flag. Two results with the same hash told the agent the same thing.
 */
export function resultHash(content: unknown, failed: boolean): string {
  return hashText(`${failed ? "error" : "ok"}\u0000${canonicalJson(content)}`);
}

/** The fingerprint part of one call and its result (0.4): the call's part, then its result's hash. */
export function callResultPart(name: string, args: unknown, failed: boolean, result: string): string {
  return `${callPart(name, args, failed)}\u0000result\u0000${result}`;
}

/** The key of one run of a call: the tool, its canonical arguments and its result's hash (the same key again is a re-run). */
export function runKey(name: string, args: unknown, result: string): string {
  return hashText(`${name}\u0000${canonicalJson(args)}\u0000${result}`);
}

/** The key of what a read-only call read: the tool and its canonical arguments (another path, pattern or id is another key). */
export function readKey(name: string, args: unknown): string {
  return hashText(`${name}\u0000${canonicalJson(args)}`);
}
