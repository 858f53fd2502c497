#!/bin/sh
# The quality bench's model server (docs/quality.md): the llama-cpp-python server script
# named by SERVE_SH (start|stop PORT), with
# one thread for prompt batches as well as for generation. serve.sh passes
# --n_threads_batch "$(nproc)"; on the shared 2-core machine under load, two batch
# threads evaluated prompts at half the speed of one (21 against 40 tokens/s), so this
# wrapper puts an `nproc` that answers 1 first on PATH. serve.sh itself is unchanged.
#
#   bench/quality/server.sh start|stop|restart PORT
#
# restart is what run.py's --on-abandoned runs: llama-cpp-python finishes a request the
# hook gave up on, which would hold up the next commit's request.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 start|stop|restart PORT" >&2; exit 2; }
serve=${SERVE_SH:?SERVE_SH names the llama-cpp-python server script (start|stop PORT)}
shim=$(mktemp -d)
trap 'rm -rf -- "$shim"' EXIT
printf '#!/bin/sh\necho 1\n' > "$shim/nproc"
chmod +x "$shim/nproc"
case $1 in
  start) PATH=$shim:$PATH "$serve" start "$2" ;;
  stop) "$serve" stop "$2" ;;
  restart) "$serve" stop "$2"; PATH=$shim:$PATH "$serve" start "$2" ;;
  *) echo "usage: $0 start|stop|restart PORT" >&2; exit 2 ;;
esac
