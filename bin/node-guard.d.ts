// Types for node-guard.js, which stays plain JavaScript so that an old Node can run it.

export declare const NEEDS_PROJECT_NODE: string

/** Why this Node cannot run the command, or null when it can. */
export declare function nodeProblem(version: string, typescript: string | boolean | undefined): string | null

export declare const SUPPORTED_NODE: string

/** Why this Node cannot run live-evals at all (compiled or not), or null when it can. */
export declare function unsupportedNode(version: string): string | null
