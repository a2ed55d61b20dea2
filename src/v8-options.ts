/**
 * V8 options the bot gives itself once its modules are loaded, rather than on node's command line:
 * there, an option that changes how V8 compiles voids the code cache Node ships for its own modules,
 * so every Node module the bot loads was compiled again at each start (~50 ms of it).
 */
import { setFlagsFromString } from 'node:v8';

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
