/**
 * V8 options the bot gives itself once its modules are loaded, rather than on node's command line:
 * there, an option that changes how V8 compiles voids the code cache Node ships for its own modules,
 * so every Node module the bot loads was compiled again at each start (~50 ms of it).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The HTTP parser of Slack's and the courier's answers (llhttp, WebAssembly) stays on V8's baseline
 * compiler. Otherwise V8 recompiles it with its optimising compiler after the first few answers: about
 * 0.5 s of CPU and 30–40 MB on a helper thread, part of which glibc keeps for good. Set before the
 * first request, which compiles the parser.
 */
export function keepWasmOnBaseline(): void {
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}

/**
 * Start-up leaves about 8 MB of V8 heap behind: the objects and the code of the settings, the store's
 * checks and the registration, none of them needed again. V8's memory reducer would give it back once
 * the process is quiet, but it judges quiet by the allocation rate of the last collections, which are
 * start-up's, so on its own it never acts (--trace-memory-reducer). One memory-reducing collection
 * (about 70 ms, once) does what it would have done.
 */
export function releaseStartupMemory(): void {
  setFlagsFromString('--expose-gc');
  // Only a new context gets `gc`; the bot's own global never has it.
  const collect = runInNewContext('gc') as (options: { type: 'major'; flavor: 'last-resort' }) => void;
  setFlagsFromString('--no-expose-gc');
  collect({ type: 'major', flavor: 'last-resort' });
}
