"""The episode viewer: one static HTML page per episode, read from its records alone.

A timeline lists both players' turns in the order they started, each with the bomb clock and
the strikes as last observed; selecting a turn (click, or the arrow keys / j k / Home End)
shows what the player received, its raw output, the parsed action, the issues it was told
about, the game's answer, a model turn's whole request (its transcript: system prompt, the
manual, the history and the newest turn with its images; each message once on the page), and
— for a Defuser turn — the images:

- a model Defuser: exactly the images its request carried (the record keeps them by hash);
- a scripted Defuser (it is sent no image): the newest frame with the marks it acted on,
  re-created from the recorded frame and mask (the same drawing a model would have been sent
  at game resolution), and the previous turn's frame.

Images are copied next to the page, so the folder works offline and can be zipped.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from gptnt.analysis._load import RecordedEpisode
from gptnt.protocol import encode_png
from gptnt.records import TurnEvent, frame_path, read_message, requests, usd
from gptnt.vision import build_marks

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 0; display: flex; height: 100vh; }}
#timeline {{ width: 34em; overflow-y: auto; border-right: 1px solid #ccc; margin: 0; padding: 0; }}
#timeline li {{ list-style: none; padding: 3px 6px; border-bottom: 1px solid #eee; cursor: pointer;
  font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
#timeline li.expert {{ background: #f4f8ff; }}
#timeline li.selected {{ background: #ffe9a8; }}
#timeline li .issue {{ color: #b00; }}
main {{ flex: 1; overflow-y: auto; padding: 0 1em 2em; }}
header {{ padding: 0.5em 1em; border-bottom: 1px solid #ccc; }}
pre {{ white-space: pre-wrap; background: #f6f6f6; padding: 0.5em; }}
figure {{ display: inline-block; margin: 0 1em 1em 0; vertical-align: top; }}
figure img {{ width: 380px; max-width: 100%; border: 1px solid #999; }}
figcaption {{ font-size: 12px; max-width: 380px; }}
.warn {{ color: #a60; }} .err {{ color: #b00; }}
.transcript .message {{ border-left: 3px solid #ccc; margin: 0.5em 0; padding-left: 0.6em; }}
.transcript .message[data-role="assistant"] {{ border-color: #6a6; }}
.transcript .message[data-role="system"] {{ border-color: #999; }}
.transcript .message.newest {{ border-color: #c80; }}
.transcript img.sent {{ width: 300px; border: 1px solid #999; display: block; margin: 0.3em 0; }}
.missing {{ color: #666; font-size: 12px; }}
</style></head>
<body>
<ol id="timeline" data-turns="{turn_count}">{items}</ol>
<main>
<header><h1>{title}</h1><p>{about}</p>
<p><a href="{report}">← report</a> · keys: ↑/↓, j/k, Home/End step through the turns</p></header>
<section id="turn" aria-live="polite"></section>
</main>
<script type="application/json" id="data">{data}</script>
<script type="application/json" id="messages">{messages}</script>
<script>
"use strict";
const turns = JSON.parse(document.getElementById("data").textContent);
const messages = JSON.parse(document.getElementById("messages").textContent);
const items = Array.from(document.querySelectorAll("#timeline li"));
const pane = document.getElementById("turn");
let current = -1;
function el(tag, text, cls) {{
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}}
function show(i) {{
  if (i < 0 || i >= turns.length) return;
  if (current >= 0) items[current].classList.remove("selected");
  current = i;
  items[i].classList.add("selected");
  items[i].scrollIntoView({{block: "nearest"}});
  const t = turns[i];
  pane.replaceChildren();
  pane.dataset.index = String(i);
  pane.append(el("h2", `${{t.role}} turn ${{t.turn}} — clock ${{t.clock}}, strikes ${{t.strikes}}`));
  for (const img of t.images) {{
    const fig = el("figure");
    const pic = el("img");
    pic.src = img.src;
    pic.alt = img.caption;
    pic.className = "shown";
    fig.append(pic, el("figcaption", img.caption));
    pane.append(fig);
  }}
  const add = (title, text, cls) => {{ pane.append(el("h3", title)); pane.append(el("pre", text, cls)); }};
  add("Messages received", t.received.length ? t.received.join("\\n---\\n") : "(none)");
  add("Raw output", t.raw_output || "(empty)");
  add("Parsed action", JSON.stringify(t.action, null, 1));
  if (t.warnings.length) add("Warnings (told to the player next turn)", t.warnings.join("\\n"), "warn");
  if (t.errors.length) add("Errors (the turn was skipped or refused)", t.errors.join("\\n"), "err");
  add("Result", t.result === null ? "(no game interaction)" : t.result);
  add("Call", t.call);
  if (t.request.length) transcript(t.request);
  history.replaceState(null, "", "#t=" + i);
}}
function transcript(request) {{
  const box = el("section", undefined, "transcript");
  box.append(el("h3", `Transcript: the whole request, ${{request.length}} messages`));
  request.forEach((index, n) => {{
    const m = messages[index];
    const newest = n === request.length - 1;
    const part = el("details", undefined, "message" + (newest ? " newest" : ""));
    part.dataset.role = m.role;
    part.open = newest || m.label === "reply";
    const title = newest ? "this turn (user)" : m.label;
    part.append(el("summary", `${{n}}: ${{title}} — ${{m.size}}`));
    for (const p of m.parts) {{
      if (p.text !== undefined) part.append(el("pre", p.text));
      else if (p.src) {{ const pic = el("img", undefined, "sent"); pic.src = p.src; pic.alt = p.hash; part.append(pic); }}
      else if (p.hash) part.append(el("p", `image ${{p.hash}}: ${{p.missing}}`, "missing"));
      else part.append(el("p", "(cache point)", "missing"));
    }}
    box.append(part);
  }});
  pane.append(box);
}}
items.forEach((item, i) => item.addEventListener("click", () => show(i)));
document.addEventListener("keydown", (event) => {{
  const moves = {{ArrowDown: 1, ArrowRight: 1, j: 1, ArrowUp: -1, ArrowLeft: -1, k: -1}};
  if (event.key in moves) {{ show(current + moves[event.key]); event.preventDefault(); }}
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(turns.length - 1);
}});
const start = /^#t=(\\d+)$/.exec(location.hash);
show(start ? Number(start[1]) : 0);
</script>
</body></html>
"""


def clock(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    seconds = max(seconds, 0.0)
    return f"{int(seconds // 60)}:{seconds % 60:05.2f}"


def write_episode_page(
    episode: RecordedEpisode, page: Path, report_href: str, *, fork_href: str | None = None
) -> int:
    """Write the viewer page of ``episode`` at ``page`` (images in a sibling folder); return
    the number of turns on its timeline. A replay's branch names its parent, marks its restored
    turns ``↺`` and links ``fork_href``, its page beside the parent (``_branch_view``)."""
    assets = page.with_suffix("")
    if assets.exists():
        shutil.rmtree(assets)
    assets.mkdir(parents=True)
    turns = sorted(episode.turns, key=lambda t: (t.started_at, t.role != "defuser"))
    data, items = [], []
    transcripts = _Transcripts(episode, assets)
    clock_now: float | None = None
    strikes_now = 0
    previous: str | None = None  # newest frame of the previous Defuser turn
    for t in turns:
        if t.seconds_remaining is not None:
            clock_now = t.seconds_remaining
        if t.strikes is not None:
            strikes_now = t.strikes
        images = _images(episode, t, previous, assets)
        if t.role == "defuser" and t.frames:
            previous = t.frames[-1]
        summary = action_text(t)
        issue = ' <span class="issue">⚑</span>' if t.errors or t.warnings else ""
        restored = "↺ " if t.restored else ""
        items.append(
            f'<li class="turn {t.role}" data-role="{t.role}">{restored}{escape(t.role[0].upper())}{t.turn} '
            f"{clock(clock_now)} ✗{strikes_now} {escape(summary)}{issue}</li>"
        )
        data.append({
            "role": t.role, "turn": t.turn, "clock": clock(clock_now), "strikes": strikes_now,
            "received": t.received, "raw_output": t.raw_output,
            "action": t.action.model_dump(exclude_none=True), "result": t.result,
            "warnings": t.warnings, "errors": t.errors, "images": images,
            "call": (f"latency {t.latency_s:.3f} s; tokens in {t.tokens.input}, out "
                     f"{t.tokens.output}, cache read {t.tokens.cache_read}, cache write "
                     f"{t.tokens.cache_write}; cost {usd(t.cost_usd, digits=6)}"),
            "request": transcripts.of(t),
        })  # fmt: skip
    for item, row in _sanzaru_timeline(episode):
        items.append(item)
        data.append(row)
    stripped = any(t.frames for t in turns) and not (episode.dir / "frames").is_dir()
    about = (
        ("These records were copied without their frames/: no images to show. " if stripped else "")
        + f"{_played(episode)}; {escape(_outcome(episode))}; "
        f"status {escape(episode.status)}, attempt {episode.attempt}; run {escape(episode.run)}"
    )
    link = episode.parent
    if link is not None:
        beside = (
            f' (<a class="fork" href="{escape(fork_href)}">side by side</a>)' if fork_href else ""
        )
        about += (f"<br>A replay of {escape(link.episode_id)} from turn {link.fork_turn} "
                  f"(↺: restored from it){beside}")  # fmt: skip
    payload = embed_json(data)
    page.write_text(
        _PAGE.format(title=escape(f"Episode {episode.episode_id}"), about=about,
                     items="".join(items), turn_count=len(data), data=payload,
                     messages=embed_json(transcripts.messages), report=escape(report_href)),
        encoding="utf-8",
    )  # fmt: skip
    return len(data)


def _played(episode: RecordedEpisode) -> str:
    """Who played what, as the page's header says it (HTML)."""
    if (sz := episode.sanzaru) is not None:
        return (f"SANZARU variant {escape(sz.variant)}, instance {sz.instance}, repeat "
                f"{sz.repeat}; team {escape(sz.label())}")  # fmt: skip
    return (f"Mission {escape(episode.mission_id)}, {escape(episode.mode)}; Defuser "
            f"{escape(episode.defuser)}, Expert {escape(episode.expert)}")  # fmt: skip


def _outcome(episode: RecordedEpisode) -> str:
    s = episode.summary
    if s is None:
        return f"{episode.status}: no summary"
    if (sz := s.sanzaru) is not None:
        coded = f"; failure {sz.failure_mode} ({sz.coded_by})" if sz.failure_mode else ""
        return (f"{sz.ending or sz.outcome} ({s.reason}); rounds {sz.rounds_used} of "
                f"{sz.rounds}; bounces {sz.bounces}{coded}")  # fmt: skip
    return (f"{s.outcome} ({s.reason}); modules {s.modules_solved}/{len(s.modules)}; strikes "
            f"{s.strikes}; game time {s.game_time_used or 0:.1f} of {s.time_limit or 0:.0f} s")  # fmt: skip


def _sanzaru_timeline(episode: RecordedEpisode) -> Iterator[tuple[str, dict[str, Any]]]:
    """A SANZARU episode's agent turns as the timeline shows any turn: who, the round (in
    the clock's place), what was delivered, the reply and the calls parsed."""
    per_role: Counter[str] = Counter()
    for t in episode.sanzaru_turns:
        n = per_role[t.role]
        per_role[t.role] += 1
        calls = ", ".join(str(c.get("call", "?")) for c in t.calls) or "no call"
        item = (f'<li class="turn {t.role}" data-role="{t.role}">{escape(t.role[0].upper())}{n} '
                f"round {t.round} {escape(calls)}"
                + (' <span class="issue">⚑</span>' if t.failure else "") + "</li>")  # fmt: skip
        yield item, {
            "role": t.role, "turn": n, "clock": f"round {t.round}", "strikes": 0,
            "received": t.delivered, "raw_output": t.raw or "", "action": t.calls,
            "result": None, "warnings": [], "errors": [t.failure] if t.failure else [],
            "images": [], "request": [],
            "call": (f"latency {t.latency_s or 0:.3f} s; "
                     + (f"cost {usd(t.cost_usd, digits=6)}; " if t.cost_usd is not None else "")
                     + f"view shown:\n{t.view}"),
        }  # fmt: skip


_UNSAFE_IN_SCRIPT = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                                   "\u2028": "\\u2028", "\u2029": "\\u2029"})  # fmt: skip


def embed_json(value: object) -> str:
    """``value`` as JSON that can sit inside ``<script type="application/json">``: no ``<`` is
    left, so no text a model wrote (``</script>``, ``<!--<script>``) can end or swallow the
    element; JSON reads ``\\u003c`` back as ``<``."""
    text = json.dumps(value, ensure_ascii=False)
    return text.translate(_UNSAFE_IN_SCRIPT)


class _Transcripts:
    """Each model turn's whole request as indices into one list of its episode's messages
    (each message once on the page, as in the records), their images copied next to it."""

    def __init__(self, episode: RecordedEpisode, assets: Path) -> None:
        self._episode, self._assets = episode, assets
        self._whole = requests(episode.turns)
        self._index: dict[str, int] = {}
        self.messages: list[dict[str, object]] = []

    def of(self, t: TurnEvent) -> list[int]:
        return [self._add(h) for h in self._whole.get((t.role, t.turn), [])]

    def _add(self, digest: str) -> int:
        if digest in self._index:
            return self._index[digest]
        stored = read_message(self._episode.dir, digest)
        parts: list[dict[str, str]] = []
        images = kept = 0
        for p in stored.parts if stored else []:
            if p.text is not None:
                parts.append({"text": p.text})
            elif p.image is not None:
                images += 1
                if frame_path(self._episode.dir, p.image).exists():
                    kept += 1
                    parts.append({"hash": p.image[:16],
                                  "src": _copy(self._episode.dir, p.image, self._assets)})  # fmt: skip
                else:
                    parts.append({"hash": p.image[:16], "missing": "a manual page's image, "
                                  "named by hash and not copied into the records"})  # fmt: skip
            else:
                parts.append({})
        role = stored.role if stored else "user"
        label = {"system": "system prompt", "assistant": "reply"}.get(role, "user")
        if images > kept:
            label = "the manual (pinned)"
        chars = sum(len(p.get("text", "")) for p in parts)
        size = f"{chars:,} characters" + (f", {images} images" if images else "")
        if stored is None:
            parts, size = [{"text": "(message file missing)"}], "missing"
        self._index[digest] = len(self.messages)
        self.messages.append({"role": role, "label": label, "size": size, "parts": parts})
        return self._index[digest]


def action_text(t: TurnEvent) -> str:
    """What a turn did, in a few words (the timeline's line)."""
    a = t.action
    if a.kind == "send_message":
        return f"says: {a.message or ''}"
    if a.kind == "interact_game":
        return f"{a.name or 'interact'} {a.label or ''}".strip()
    return "does nothing"


def _images(
    episode: RecordedEpisode, t: TurnEvent, previous: str | None, assets: Path
) -> list[dict[str, str]]:
    if t.role != "defuser":
        return []
    if t.frames and not frame_path(episode.dir, t.frames[-1]).exists():
        return []  # a copy of the records without its frames/ (the page says so)
    if t.shown:  # a model: exactly what it was sent
        return [{"caption": s.caption, "src": _copy(episode.dir, s.image, assets)}
                for s in t.shown]  # fmt: skip
    out = []
    if previous is not None:
        out.append({"caption": "The previous turn's frame (not sent: scripted player)",
                    "src": _copy(episode.dir, previous, assets)})  # fmt: skip
    if t.frames:
        marked = recreate_marked(episode.dir, t)
        if marked is not None:
            name = f"marked-{t.turn}.png"
            (assets / name).write_bytes(marked)
            caption = "The newest frame with the marks the player acted on (re-created from the recorded frame and mask)"
            out.append({"caption": caption, "src": f"{assets.name}/{name}"})
        else:
            out.append({"caption": "The newest frame (no readable mask recorded)",
                        "src": _copy(episode.dir, t.frames[-1], assets)})  # fmt: skip
    return out


def recreate_marked(episode_dir: Path, t: TurnEvent) -> bytes | None:
    """The newest frame of a turn with its set of marks drawn, as a PNG, from the recorded
    frame, mask and module in view (``None`` without a mask, or when either file cannot be read:
    missing, corrupt, or larger than a game frame can be)."""
    if not t.frames or t.mask is None:
        return None
    frame = _read(frame_path(episode_dir, t.frames[-1]))
    mask = _read(frame_path(episode_dir, t.mask))
    if frame is None or mask is None or frame.shape[:2] != mask.shape[:2]:
        return None
    # a recorded kind name: one the registry does not know is placed and coloured by default
    marks = build_marks(mask, frame, t.focused)  # type: ignore[arg-type]
    return encode_png(marks.draw(frame), compress_level=6)


_MAX_FRAME_SIDE = 4096  # the game's frame sides lie in 64–4096 (``GameConfig``)


def _read(path: Path) -> np.ndarray | None:
    """A recorded frame or mask as RGB, or ``None`` if it is not a readable image of a game
    frame's size (its header is checked before it is decoded)."""
    try:
        with Image.open(path) as image:
            if max(image.size) > _MAX_FRAME_SIDE:
                return None
            return np.asarray(image.convert("RGB"))
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


def _copy(episode_dir: Path, digest: str, assets: Path) -> str:
    source = frame_path(episode_dir, digest)
    target = assets / f"{digest[:16]}.png"
    if source.exists() and not target.exists():
        shutil.copyfile(source, target)
    return f"{assets.name}/{target.name}"
