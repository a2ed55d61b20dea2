#!/bin/sh
# node with the bot's runtime options, for `npm start`, the image's CMD and a process manager's direct
# entry: `sh scripts/node.sh dist/app.js` (docs/deployment.md#node-options says why each).

# Node keeps the modules' compiled code between starts in the bot user's cache directory: from the second
# start on, start-up is about 60 ms shorter, for 2–3 MB more at rest. A NODE_COMPILE_CACHE given wins;
# NODE_DISABLE_COMPILE_CACHE=1 turns it off; without a HOME there is none.
if [ -z "${NODE_COMPILE_CACHE-}" ] && [ -n "${HOME-}" ]; then
  export NODE_COMPILE_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/waybill-bot"
fi

# On Node 22, AsyncLocalStorage (which gives each log line its request's id) runs on promise hooks that
# tax every promise a request makes (~5% of the CPU before a submission's ack, profiled); the async
# context frame, Node 24's default, does not. Its flag is Node 22's alone (Node 24 refuses it).
case "$(node --version)" in
  v22.*) set -- --experimental-async-context-frame "$@" ;;
esac

exec node --max-semi-space-size=4 --max-old-space-size=512 --v8-pool-size=1 "$@"
