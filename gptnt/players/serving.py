"""Serving the open models: the ``vllm serve`` command line for a player config.

vLLM is an optional extra (``pip install gptnt[vllm]``), so this module only builds the command;
``gptnt vllm CONFIG`` runs it (or prints it with ``--dry-run``). The settings come from the
config's ``serve`` block; the served model name is the config's model name, so the player's
requests (``vllm:<name>`` at ``base_url``) reach it unchanged. vLLM itself reads the key the
clients must present from ``$VLLM_API_KEY`` (unset: no key), the variable the configs name.
"""

from __future__ import annotations

import json
from urllib.parse import urlparse

from gptnt.errors import PlayerConfigError
from gptnt.players.config import PlayerConfig, VllmServe

DEFAULT_PORT = 8000


def vllm_command(config: PlayerConfig, *, port: int | None = None) -> list[str]:
    """``vllm serve …`` for ``config`` (a ``vllm:`` model); the port defaults to base_url's."""
    label = config.name or config.model
    if config.provider != "vllm":
        raise PlayerConfigError(
            f"player {label}: model {config.model!r} is not served by vLLM; pick a config whose "
            "model starts with 'vllm:'"
        )
    serve = config.serve or VllmServe()
    url = urlparse(config.base_url or "")
    host = url.hostname or "127.0.0.1"
    max_len = serve.max_model_len
    if max_len is None and config.input_limit is not None:
        max_len = config.input_limit + config.max_tokens
    command = [
        "vllm", "serve", config.model_name,
        "--host", host,
        "--port", str(port or url.port or DEFAULT_PORT),
        "--dtype", serve.dtype,
        "--tensor-parallel-size", str(serve.tensor_parallel_size),
        "--limit-mm-per-prompt", json.dumps({"image": serve.max_images}),
        "--enable-prefix-caching",
    ]  # fmt: skip
    if max_len is not None:
        command += ["--max-model-len", str(max_len)]
    if serve.trust_remote_code:
        command.append("--trust-remote-code")
    if serve.chat_template_kwargs:
        command += ["--default-chat-template-kwargs", json.dumps(serve.chat_template_kwargs)]
    if serve.gpu_memory_utilization is not None:
        command += ["--gpu-memory-utilization", f"{serve.gpu_memory_utilization:g}"]
    return [*command, *serve.extra_args]
