/** The values last asked for, at most `size` of them, the oldest forgotten first. */
export class Recent<K, V> {
  private readonly kept = new Map<K, V>();

  constructor(private readonly size: number) {}

  get(key: K, make: () => V): V {
    const value = this.kept.has(key) ? (this.kept.get(key) as V) : make();
    this.kept.delete(key);
    this.kept.set(key, value);
    if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value as K);
    return value;
  }
}
