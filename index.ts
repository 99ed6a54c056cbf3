/**
 * The entry pi loads. pi lists an extension under the name of the folder its entry file is in, so the
 * entry sits at the package root and the extension is listed as `pi-todo-loop` (from `src/` it would be
 * listed as `src`). Everything starts in `src/index.ts`.
 */
export { default } from "./src/index.ts";
