// The nodes of a transport: round-robin over the live ones; a node that fails (refuses, hangs,
// drops the connection) is marked dead and resurrected after a backoff that doubles with each
// failure in a row (with jitter), while the other nodes serve. When every node is dead, the one
// due back first is tried.

interface NodeState {
  readonly url: string;
  failures: number;
  deadUntil: number;
}

/** Live/dead bookkeeping of the nodes. */
export class NodePool {
  readonly #nodes: NodeState[];
  readonly #baseMs: number;
  readonly #maxMs: number;
  #next = 0;
  #dead = 0;

  constructor(urls: readonly string[], baseMs: number, maxMs: number) {
    this.#nodes = urls.map((url) => ({ url, failures: 0, deadUntil: 0 }));
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
  }

  /** The next node to ask. */
  pick(): string {
    const nodes = this.#nodes;
    const n = nodes.length;
    if (this.#dead === 0) return nodes[this.#next++ % n]!.url;
    const now = Date.now();
    let best: NodeState | undefined;
    for (let k = 0; k < n; k++) {
      const node = nodes[this.#next++ % n]!;
      if (node.deadUntil <= now) return node.url;
      if (best === undefined || node.deadUntil < best.deadUntil) best = node;
    }
    return best!.url;
  }

  /** Marks a node dead after a failure; it is asked again after the backoff. True when it was alive. */
  markDead(url: string): boolean {
    const node = this.#nodes.find((x) => x.url === url);
    if (node === undefined) return false;
    const wasAlive = node.failures === 0;
    if (wasAlive) this.#dead++;
    node.failures++;
    const ceiling = Math.min(this.#maxMs, this.#baseMs * 2 ** (node.failures - 1));
    node.deadUntil = Date.now() + ceiling * (0.5 + Math.random() / 2);
    return wasAlive;
  }

  /** Marks a node alive after it answered. True when it was dead. */
  markAlive(url: string): boolean {
    if (this.#dead === 0) return false;
    const node = this.#nodes.find((x) => x.url === url);
    if (node === undefined || node.failures === 0) return false;
    node.failures = 0;
    node.deadUntil = 0;
    this.#dead--;
    return true;
  }

  /** Whether a node failed and has not answered since. */
  isDead(url: string): boolean {
    if (this.#dead === 0) return false;
    return (this.#nodes.find((x) => x.url === url)?.failures ?? 0) > 0;
  }

  /** The nodes now marked dead. */
  deadNodes(): string[] {
    const now = Date.now();
    return this.#nodes.filter((x) => x.failures > 0 && x.deadUntil > now).map((x) => x.url);
  }
}
