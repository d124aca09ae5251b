#!/usr/bin/env bash
# Start Xorg on the GPU, install the player settings, then run KTANE with our mod (mod/README.md).
# Env: DISPLAY_NUMBER (0), GPU_BUS_ID (optional, e.g. PCI:59:0:0; default: every NVIDIA GPU),
#      port (8085), GAME_WIDTH/GAME_HEIGHT (640/480), KTANE_DIR (/opt/ktane).
set -euo pipefail
DISPLAY_NUMBER="${DISPLAY_NUMBER:-0}"
KTANE_DIR="${KTANE_DIR:-/opt/ktane}"
export port="${port:-8085}" GAME_WIDTH="${GAME_WIDTH:-640}" GAME_HEIGHT="${GAME_HEIGHT:-480}"
export GPTNT_MOD_BIND="${GPTNT_MOD_BIND:-*}"  # other containers must reach the mod
export DISPLAY=":${DISPLAY_NUMBER}.0"

game=$(find "$KTANE_DIR" -maxdepth 1 -name '*.x86_64' | head -n 1)
[[ -n "$game" ]] || { echo "error: no *.x86_64 in $KTANE_DIR; mount your KTANE Linux build there" >&2; exit 2; }
[[ -d "$KTANE_DIR/mods" ]] && ls "$KTANE_DIR/mods" | grep -q . \
    || { echo "error: $KTANE_DIR/mods is empty; build the mod into mods/GptntHttp (mod/README.md)" >&2; exit 2; }

args=("$DISPLAY_NUMBER")
[[ -n "${GPU_BUS_ID:-}" ]] && args+=(--bus-id "$GPU_BUS_ID")
python3 /opt/gptnt/startx.py "${args[@]}" &
for _ in $(seq 100); do [[ -S "/tmp/.X11-unix/X${DISPLAY_NUMBER}" ]] && break; sleep 0.2; done
[[ -S "/tmp/.X11-unix/X${DISPLAY_NUMBER}" ]] || { echo "error: Xorg did not start on :$DISPLAY_NUMBER" >&2; exit 1; }

settings="$HOME/.config/unity3d/Steel Crate Games/Keep Talking and Nobody Explodes"
mkdir -p "$settings"
for file in playerSettings.xml progression.xml; do
    [[ -f "$settings/$file" ]] || cp "/opt/gptnt/settings/$file" "$settings/$file"
done

cd "$KTANE_DIR"  # mods are found relative to the game folder
exec "$game" -screen-width "$GAME_WIDTH" -screen-height "$GAME_HEIGHT" -screen-fullscreen 0 -logFile -
