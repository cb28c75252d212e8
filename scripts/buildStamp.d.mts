// Types of scripts/buildStamp.mjs, for its test.
export declare const INPUTS: readonly string[];
export declare const STAMP: string;
export declare function newestInput(root: string): number;
export declare function staleReason(root: string): string | undefined;
export declare function writeStamp(root: string, inputs: number): void;
