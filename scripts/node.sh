#!/bin/sh
# node with the bot's runtime options, for `npm start`, the image's CMD and a process manager's direct
# entry: `sh scripts/node.sh dist/app.js` (docs/deployment.md#node-options says why each).

case "$(node --version)" in
  v22.*)
    # AsyncLocalStorage (which gives each log line its request's id) runs here on promise hooks that tax
    # every promise a request makes (~5% of the CPU before a submission's ack, profiled); the async
    # context frame, Node 24's default, does not. Node 24 refuses this flag.
    set -- --experimental-async-context-frame "$@"
    # The heap options below cost Node 22 the code cache it ships for its own modules; from the second
    # start on, the compile cache (the bot's and its libraries' code, kept in the bot user's cache
    # directory) makes up the time: start-up 1.6 to 1.3 times bare Bolt's, for 2-3 MB. On Node 24 it
    # saved less and held 10-15 MB more at the peak, so it is left off there.
    # A NODE_COMPILE_CACHE given wins; NODE_DISABLE_COMPILE_CACHE=1 turns it off; without a HOME, none.
    if [ -z "${NODE_COMPILE_CACHE-}" ] && [ -n "${HOME-}" ]; then
      export NODE_COMPILE_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/waybill-bot"
    fi
    ;;
esac

exec node --max-semi-space-size=4 --max-old-space-size=512 --v8-pool-size=1 "$@"
