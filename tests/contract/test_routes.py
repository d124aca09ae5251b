"""Every route answers with the shipped mod's bodies (docs/protocol.md §1–§2), honest statuses."""

from __future__ import annotations

import re

import httpx
import pytest

from ._backend import TOKENS, assert_refused, to_setup

CORS = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "Content-Type, traceparent, tracestate",
}
VANILLA = {
    "Wires", "BigButton", "Keypad", "Simon", "WhosOnFirst", "Memory", "Morse", "Venn",
    "WireSequence", "Maze", "Password",
}  # fmt: skip


def test_health_is_a_lifecycle_token(http: httpx.Client) -> None:
    response = http.get("/health")
    assert response.status_code == 200
    assert response.text in TOKENS


@pytest.mark.parametrize("path", ["/observation", "/bombinfo", "/health/extra"])
def test_unknown_route(http: httpx.Client, path: str) -> None:
    assert_refused(http.get(path), 404, "Unknown route.")


def test_route_paths_are_case_insensitive(http: httpx.Client) -> None:
    assert http.get("/HEALTH").text == http.get("/health").text
    assert http.get("/Debug").text.startswith("Current face is")


@pytest.mark.parametrize("path", ["/health", "/no-such-route", "/modules"])
def test_cors_headers_on_every_response(http: httpx.Client, path: str) -> None:
    headers = http.get(path).headers
    for name, value in CORS.items():
        assert headers[name] == value


def test_options_preflight_is_answered_empty(http: httpx.Client) -> None:
    response = http.options("/health")
    assert response.status_code == 200 and response.content == b""
    assert response.headers["access-control-allow-origin"] == "*"


def test_post_is_served_like_get(http: httpx.Client) -> None:
    assert http.post("/health").text in TOKENS


def test_modules_lists_every_vanilla_module(http: httpx.Client) -> None:
    response = http.get("/modules")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    listed = response.json()
    assert all({"id", "displayName", "isMod"} <= set(item) for item in listed)
    assert {item["id"] for item in listed if not item["isMod"]} >= VANILLA
    names = [item["displayName"] for item in listed]
    assert names == sorted(names)


def test_debug_names_the_face(http: httpx.Client) -> None:
    assert re.fullmatch(r"Current face is (Front|Rear)", http.get("/debug").text)


@pytest.mark.parametrize("value", ["abc", ""])
def test_settimescale_junk(http: httpx.Client, value: str) -> None:
    assert_refused(
        http.get("/settimescale", params={"value": value}), 400, "Could not parse request"
    )


def test_setstepunit_echoes(http: httpx.Client) -> None:
    to_setup(http)
    response = http.get("/setstepunit", params={"value": "3000"})
    assert (response.status_code, response.text) == (200, "Set timeStepSize to 3000")


def test_setstepunit_without_value_is_an_error(http: httpx.Client) -> None:
    assert_refused(http.get("/setstepunit"), 400, "Error:")


def test_random_without_value_is_an_error(http: httpx.Client) -> None:
    assert_refused(http.get("/random"), 400, "Error:")
