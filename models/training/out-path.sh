# Sourced by train.sh: `out_path DEFAULT ARGS…` prints the model path the Python step writes: the
# value of its --out option among ARGS (`--out PATH` or `--out=PATH`), or DEFAULT.
out_path() {
  local out="$1"
  shift
  local args=("$@")
  for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
      --out) out="${args[i + 1]}" ;;
      --out=*) out="${args[i]#--out=}" ;;
    esac
  done
  printf '%s\n' "$out"
}
