// The types of what scripts/build.mjs exports, for the tests that import it.
/** The bundles the build writes to dist/ (name: source). */
export const entryPoints: Record<string, string>;
/** Dependencies bundled into dist/ rather than loaded from node_modules. */
export const bundled: string[];
export function bundle(outdir: string, entries?: Record<string, string>): Promise<void>;
