#!/usr/bin/env sh
# Start vLLM's OpenAI-compatible server for an open-model player config, with the paper's
# settings (configs/players/<name>.yaml, its `serve:` block). Examples:
#   scripts/serve_vllm.sh qwen3-5-27b
#   scripts/serve_vllm.sh internvl3-5-38b --dry-run
# Needs the optional extra: pip install 'gptnt[vllm]'.
set -eu
if [ "$#" -lt 1 ]; then
  echo "usage: $0 CONFIG [--port N] [--dry-run]" >&2
  exit 2
fi
exec "${GPTNT:-gptnt}" vllm "$@"
