#!/bin/sh
# node with the bot's runtime options, for `npm start`, the image's CMD and a process manager's direct
# entry: `sh scripts/node.sh dist/app.js` (docs/deployment.md#node-options says why each).
# On Node 22, AsyncLocalStorage (which gives each log line its request's id) runs on promise hooks that
# tax every promise a request makes (~5% of the CPU before a submission's ack, profiled); the async
# context frame, Node 24's default, does not. Its flag is Node 22's alone (Node 24 refuses it).
case "$(node --version)" in
  v22.*) set -- --experimental-async-context-frame "$@" ;;
esac
exec node --max-semi-space-size=4 --max-old-space-size=512 --v8-pool-size=1 "$@"
