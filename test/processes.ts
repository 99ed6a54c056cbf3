/**
 * Whether a process still runs, for the tests that check a command's whole process group is gone
 * (Linux: read from /proc). A zombie (state Z) has exited — only its table entry is left for a parent
 * that may never reap it — so it does not count as running.
 */
import { readFileSync } from "node:fs";

export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
