/** A setting that is wrong: start-up stops with one line per bad setting, each naming it first. Imports nothing, so every layer may throw it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  /** One line per bad setting, each naming it first. */
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const lines = typeof problems === 'string' ? [problems] : problems;
    super(lines.join('\n'));
    this.problems = lines;
  }
}
