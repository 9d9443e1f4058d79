// Types of precompress.mjs for TypeScript callers (the gateway's tests run it on a fake build).
export declare const PRECOMPRESS_MIN_BYTES: number;
export declare const PRECOMPRESSED_TYPES: RegExp;
export declare const ENCODINGS: readonly [
  { readonly name: 'br'; readonly suffix: '.br' },
  { readonly name: 'gzip'; readonly suffix: '.gz' },
];
export declare function compressBoth(bytes: Uint8Array): Promise<{ br: Buffer; gzip: Buffer }>;
export declare function precompressDir(
  dir: string,
): Promise<{ files: number; bytes: number; br: number; gzip: number }>;
