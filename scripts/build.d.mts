// The types of what scripts/build.mjs exports, for the tests that import it.
/** The bundles the build writes to dist/ (name: source). */
export const entryPoints: Record<string, string>;
/** Dependencies bundled into dist/ rather than loaded from node_modules. */
export const bundled: string[];
/** Resolves to the paths, from the project's root, of the files bundled and copied. */
export function bundle(outdir: string, entries?: Record<string, string>): Promise<string[]>;
