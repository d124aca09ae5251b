# KTANE on a GPU inside a container: Xorg on the NVIDIA GPU (scripts/startx.py) and the game
# with our mod. The game itself is NOT in the image: mount your own copy (Linux build, with
# mods/GptntHttp/ built as mod/README.md says) at /opt/ktane. Built from the repo root:
#   docker compose build game
# Needs the NVIDIA Container Toolkit; NVIDIA_DRIVER_CAPABILITIES=all makes it mount the host
# driver's user-space and Xorg modules (nvidia_drv.so, libglxserver_nvidia.so) into the container.
FROM ubuntu:22.04
ENV DEBIAN_FRONTEND=noninteractive \
    NVIDIA_VISIBLE_DEVICES=all \
    NVIDIA_DRIVER_CAPABILITIES=all
RUN apt-get update && apt-get install -y --no-install-recommends \
        xserver-xorg-core x11-xserver-utils pciutils python3 curl ca-certificates \
        libgl1 libglu1-mesa libx11-6 libxcursor1 libxrandr2 libxext6 libxi6 libxinerama1 \
        libgtk2.0-0 libasound2 libpulse0 \
    && rm -rf /var/lib/apt/lists/*
COPY scripts/startx.py /opt/gptnt/startx.py
COPY mod/docker/game-entrypoint.sh /opt/gptnt/game-entrypoint.sh
COPY mod/settings /opt/gptnt/settings
EXPOSE 8085
ENTRYPOINT ["/opt/gptnt/game-entrypoint.sh"]
