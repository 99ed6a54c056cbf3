/**
 * The question detector's stable path: `askedQuestion()` lives in `src/core/question.ts`; this file keeps
 * `src/question.ts`, where the detector lived before 0.4, importable for tools that measure it there.
 */
export { askedQuestion } from "./core/question.ts";
