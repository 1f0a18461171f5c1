// Module state for the fresh-modules check (../fresh-modules.test.ts): how many times the module runner evaluated
// this module in this process's current module graph. Each file that imports it must see itself as the first.
export const evaluations = { count: 0 }
