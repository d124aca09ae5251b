"""A provider's response body, read through a bound: never held whole past ``MAX_RESPONSE_BYTES``.

Every model client sends through ``bounded_client()``: an ``httpx2.AsyncClient`` (the SDKs' own
HTTP stack) that counts the body's bytes as they arrive (decompressed, if a server compresses what we asked it
not to) and stops the read at the cap with ``BodyTooLarge``; a ``Content-Length`` past the cap
is refused before one byte of the body is read. A body that trickles forever is the call's
deadline's to cut (``ModelBackend.complete``: one deadline over the whole call). The backend
counts either as the provider's failure, never as the model's reply.

The cap is far above any completion a player asks for (``max_tokens`` is at most 1,000,000;
a token is a few bytes of JSON) and far below what would exhaust a player's process.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator
from typing import Any

import httpx2

MAX_RESPONSE_BYTES = 16 * 1024 * 1024
"""The most bytes of one response body a model client reads (decompressed)."""
INFLATED = ("gzip", "deflate")
"""Encodings decoded (and bounded) by the client itself; any other is refused."""
CONNECT_S = 5.0
"""Wall seconds a connection may take to open (the call's own deadline bounds the rest)."""


class BodyTooLarge(Exception):
    """A response body over the cap, or compressed in a way that cannot be bounded."""


class _Capped(httpx2.AsyncByteStream):
    """A response's raw stream, decoded here when gzip/deflate (never past the cap in one step),
    stopped with ``BodyTooLarge`` once more than ``cap`` bytes came out."""

    def __init__(self, inner: httpx2.AsyncByteStream, encoding: str, cap: int) -> None:
        self._inner = inner
        self._cap = cap
        # gzip and zlib (wbits 32 + 15: either header); "deflate" may also be raw (-15).
        self._inflate = zlib.decompressobj(47) if encoding in INFLATED else None
        self._raw_deflate = encoding != "deflate"  # only deflate may fall back to raw

    async def __aiter__(self) -> AsyncIterator[bytes]:
        seen = 0
        async for chunk in self._inner:
            data = self._decode(chunk)
            seen += len(data)
            if seen > self._cap:
                raise BodyTooLarge(f"response body over {_mib(self._cap)}; the read stopped there")
            yield data

    def _decode(self, chunk: bytes) -> bytes:
        if self._inflate is None:
            return chunk
        try:
            # Never inflate past the cap in one step, whatever the chunk holds (a bomb).
            data = self._inflate.decompress(chunk, self._cap + 1)
        except zlib.error as err:
            if self._raw_deflate:
                raise BodyTooLarge(f"response body is not the {err} it says") from None
            self._raw_deflate = True
            self._inflate = zlib.decompressobj(-15)
            data = self._inflate.decompress(chunk, self._cap + 1)
        if self._inflate.unconsumed_tail:
            raise BodyTooLarge(f"response body over {_mib(self._cap)} once inflated; not read")
        return data

    async def aclose(self) -> None:
        await self._inner.aclose()


class BoundedClient(httpx2.AsyncClient):
    """An ``httpx2.AsyncClient`` whose every response body is bounded by ``cap`` bytes (its
    proxies, pool and everything else as httpx2's own)."""

    def __init__(self, cap: int = MAX_RESPONSE_BYTES) -> None:
        super().__init__(
            timeout=httpx2.Timeout(None, connect=CONNECT_S),
            headers={"Accept-Encoding": "identity"},
        )
        self._cap = cap

    async def send(
        self, request: httpx2.Request, *, stream: bool = False, **kwargs: Any
    ) -> httpx2.Response:
        response = await super().send(request, stream=True, **kwargs)
        try:
            self._bound(response)
            if not stream:
                await response.aread()
        except BaseException:
            await response.aclose()
            raise
        return response

    def _bound(self, response: httpx2.Response) -> None:
        declared = response.headers.get("content-length", "")
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if declared.isdigit() and int(declared) > self._cap:
            raise BodyTooLarge(f"response body of {int(declared):,} bytes declared, over "
                               f"{_mib(self._cap)}; not read")  # fmt: skip
        if encoding not in ("identity", "", *INFLATED):
            raise BodyTooLarge(f"response body compressed as {encoding!r}, which was not asked "
                               "for; not read")  # fmt: skip
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        response.stream = _Capped(response.stream, encoding, self._cap)
        if encoding in INFLATED:  # decoded above: httpx2 must not decode it again
            del response.headers["content-encoding"]


def bounded_client(cap: int = MAX_RESPONSE_BYTES) -> httpx2.AsyncClient:
    """The HTTP client a model's provider sends through: bodies bounded by ``cap`` (asked
    uncompressed), no timeout of its own past the connect (each call has its deadline)."""
    return BoundedClient(cap)


def body_too_large(err: BaseException) -> BodyTooLarge | None:
    """The ``BodyTooLarge`` behind ``err`` (the SDKs wrap it as a connection error), if any."""
    seen: BaseException | None = err
    for _ in range(6):  # the error, its causes: never a cycle
        if seen is None:
            return None
        if isinstance(seen, BodyTooLarge):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB"
