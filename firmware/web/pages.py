"""The companion page's HTML, written on the server in each phone's language.

Everything that came from the network or the table (a name, a page's row) goes
through ``e`` (``html.escape``) on its way into a page: a name
``<img src=x onerror=alert(1)>`` is shown as those letters. The live part of Now is
one fragment (``now_fragment``), sent whole over Server-Sent Events and put in place
by ``app.js``: the page itself never builds HTML from data.
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Sequence
from typing import Any

from firmware.display.layout import MAP_ROWS, NAME_LETTERS, SEAT_COLOURS
from firmware.table.prefs import PHONE_DAYS
from firmware.web.reading import Reading
from firmware.web.words import say
from robinson_core import BOARD, HouseRules
from robinson_core.house_rules import NAMES, format_value
from robinson_core.texts import LANGUAGES, caption, instruction, language_name, texts, ui

SQUARES = len(BOARD) - 1  # 45
TABS = ("now", "history", "rules", "settings")
PATHS = {"now": "/", "history": "/history", "rules": "/rules", "settings": "/settings"}


def e(value: object) -> str:
    return html.escape(str(value), quote=True)


def document(lang: str, tab: str, body: str, *, csrf: str = "", live: bool = False) -> str:
    """A whole page: the tabs, then ``body``."""
    nav = "".join(f'<a href="{PATHS[t]}"{" aria-current=page" if t == tab else ""}>'
                  f"{e(say(lang, t))}</a>" for t in TABS)
    meta = f'<meta name="csrf" content="{e(csrf)}">' if csrf else ""
    return (f'<!doctype html><html lang="{e(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'{meta}<title>Robinson · {e(say(lang, tab))}</title>'
            f'<meta name="description" content="{e(say(lang, "app_about"))}">'
            '<meta name="theme-color" content="#000000">'
            '<link rel="manifest" href="/manifest.webmanifest">'
            '<link rel="icon" href="/static/favicon.png" type="image/png">'
            '<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">'
            '<link rel="stylesheet" href="/static/style.css">'
            '<script src="/static/app.js" defer></script></head>'
            f'<body data-lang="{e(lang)}"{" data-live" if live else ""}>'
            f'<nav>{nav}</nav><main>{body}</main></body></html>')


def status_line(view: dict[str, Any], lang: str) -> str:
    status = view.get("status")
    if status != "playing":
        return f'<h1 class="status off">{e(say(lang, status or "stopped"))}</h1>'
    game = view.get("game")
    if game is None:
        return f'<h1 class="status">{e(say(lang, "no_game"))}</h1>'
    names = view.get("names", {})
    if view.get("rolling"):
        text = say(lang, "rolling", name=names.get(str(view["rolling"]), ""))
    elif game["over"]:
        text = (say(lang, "won", name=names.get(str(game["winner"]), ""))
                if game["winner"] else say(lang, "over"))
    else:
        text = say(lang, "turn", name=names.get(str(game["to_move"]), ""))
    seat = view.get("rolling") or (game["winner"] if game["over"] else game["to_move"])
    return f'<h1 class="status seat-{e(seat or 0)}">{e(text)}</h1>'  # Now's heading'


def now_fragment(view: dict[str, Any], lang: str) -> str:
    """The live part of Now: whose turn, the board with every token, the players, the
    pot, page 1 of the last result as the panel has it."""
    parts = [status_line(view, lang)]
    game = view.get("game")
    if view.get("status") == "playing" and game is not None:
        parts.append(board(game, lang))
        parts.append(players(game, view.get("names", {}), lang))
        if view.get("log"):
            parts.append(game_log(view["log"], view.get("names", {}), lang))
    elif (kept := view.get("kept") or {}).get("game"):  # the table is off: how it stood
        parts.append(f'<div class="kept"><p class="as-of">'
                     f'{e(say(lang, "kept", time=kept.get("time", "")))}</p>'
                     f'{board(kept["game"], lang)}'
                     f'{players(kept["game"], kept.get("names", {}), lang)}</div>')
    shown = view.get("result") or []
    if not shown and view.get("status") == "playing" and view.get("pages"):
        pages = view["pages"]  # no result yet (a new game being set up): what the panel shows
        shown = [pages[min(int(view.get("page") or 0), len(pages) - 1)]]
    for page in shown:
        parts.append(f'<section class="panel"><h2>{e(say(lang, "last"))}</h2>'
                     f'{panel_page(page)}</section>')
    return "".join(parts)


def panel_page(page: dict[str, Any]) -> str:
    rows = "".join(f"<li>{e(row)}</li>" for row in page.get("rows", []))
    foot = "".join(f"<li>{e(row)}</li>" for row in page.get("footer", []))
    return (f'<div class="oled"><b>{e(page.get("title", ""))}</b><ul>{rows}</ul>'
            f'<ul class="foot">{foot}</ul></div>')


def board(game: dict[str, Any], lang: str) -> str:
    """The 45 squares as the panel's map draws them (rows of 9, the path turning at each
    end), start beside, each token a dot in its seat's colour."""
    at: dict[int, list[int]] = {}
    for p in game["players"]:
        if p["square"] is not None:
            at.setdefault(p["square"], []).append(p["seat"])
    per_row = SQUARES // MAP_ROWS
    cells = [_cell(0, say(lang, "start"), at.get(0, []))]
    for row in range(MAP_ROWS):
        squares = list(range(row * per_row + 1, (row + 1) * per_row + 1))
        if row % 2:
            squares.reverse()
        cells.extend(_cell(n, str(n), at.get(n, []), row, col)
                     for col, n in enumerate(squares))
    return (f'<section class="board" aria-label="{e(say(lang, "board"))}">'
            f'{"".join(cells)}</section>')


def _cell(n: int, label: str, seats: Sequence[int], row: int = -1, col: int = 0) -> str:
    dots = "".join(f'<i class="tok seat-{s}" title="{s}">{s}</i>' for s in seats)
    where = f" r{row + 2} c{col + 1}" if row >= 0 else " first"
    square = BOARD[n]
    kind = " home" if n == SQUARES else (" rule" if n and instruction("en", n) else "")
    return (f'<div class="sq{kind}{where}" title="{e(square.number)}">'
            f"<span>{e(label)}</span>{dots}</div>")


def players(game: dict[str, Any], names: dict[str, str], lang: str) -> str:
    rows = []
    for p in game["players"]:
        friday = names.get(str(p["friday"]), "") if p["friday"] else ""
        note = f' <small>({e(say(lang, "sits_out"))})</small>' if p["sits_out"] else ""
        turn = " turn" if p["seat"] == game["to_move"] and not game["over"] else ""
        rows.append(f'<tr class="seat-{p["seat"]}{turn}"><td><i class="tok seat-{p["seat"]}">'
                    f'{p["seat"]}</i> {e(names.get(str(p["seat"]), ""))}{note}</td>'
                    f'<td>{e(square_word(p["square"], lang))}</td><td>{e(p["chips"])}</td>'
                    f'<td>{e(friday)}</td></tr>')
    head = "".join(f"<th>{e(say(lang, k))}</th>" for k in ("player", "square", "chips", "friday"))
    return (f'<table class="players"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
            f'</tbody><tfoot><tr><td>{e(say(lang, "pot"))}</td><td></td>'
            f'<td>{e(game["pot"])}</td><td></td></tr></tfoot></table>')


def square_word(square: object, lang: str) -> str:
    """A square as the page says it: its number, "start" (0), or "out" (None)."""
    if square is None:
        return say(lang, "out")
    return say(lang, "start") if square == 0 else str(square)


def signed(amount: int) -> str:
    """A gain or a loss: +3, −2 (the minus sign, not a hyphen)."""
    return f"{amount:+d}".replace("-", "\u2212")


def game_log(entries: Sequence[dict[str, Any]], names: dict[str, str], lang: str) -> str:
    """This game's last actions, newest first (``firmware.seam.shown.log``): who, what
    (the die, a choice, a turn missed), where from and to, and the money each way."""
    rows = []
    for entry in entries:
        seat = entry.get("seat")
        what = (say(lang, "sits_out") if entry.get("sat_out") else
                ui(lang, f"opt_{entry['choice']}") if entry.get("choice") else
                str(entry.get("roll") or ""))
        start, end = entry.get("from"), entry.get("to")
        where = square_word(end, lang) if start == end else \
            f"{square_word(start, lang)} \u2192 {square_word(end, lang)}"
        money = [f"{names.get(str(who), '')} {signed(amount)}"
                 for who, amount in entry.get("chips") or ()]
        if entry.get("pot"):
            money.append(f"{say(lang, 'pot')} {signed(int(entry['pot']))}")
        rows.append(f'<tr class="seat-{e(seat)}"><td><i class="tok seat-{e(seat)}">{e(seat)}'
                    f'</i> {e(names.get(str(seat), ""))}</td><td>{e(what)}</td>'
                    f'<td>{e(where)}</td><td>{e(" · ".join(money))}</td></tr>')
    head = "".join(f"<th>{e(say(lang, k))}</th>" for k in ("player", "roll", "square", "chips"))
    return (f'<section class="log"><h2>{e(say(lang, "log"))}</h2><table class="log"><thead>'
            f'<tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></section>')


def now_page(view: dict[str, Any], lang: str, csrf: str) -> str:
    repeat = ""
    if csrf:
        repeat = (f'<form class="intent" data-api="/api/repeat"><button>'
                  f'{e(say(lang, "repeat"))}</button></form>')
    lost = (f'<p id="lost" role="alert" hidden data-said="{e(say(lang, "lost"))}"'
            f' data-as-of="{e(say(lang, "as_of", time="{time}"))}"></p>')  # the script's
    return document(lang, "now", f'{lost}<div id="now">{now_fragment(view, lang)}</div>'
                    f'{repeat}', csrf=csrf, live=True)


def history_page(games: Sequence[Any], names: dict[str, str], lang: str,
                 off: bool = False) -> str:
    """The games put away, newest first, and the wins; ``off``: the table is off, and
    these are the games it last told (or none)."""
    wins: dict[int, int] = {}
    for game in games:
        if game.winner is not None:
            wins[game.winner] = wins.get(game.winner, 0) + 1
    body = [f"<h1>{e(say(lang, 'history'))}</h1>"]
    if off:
        body.append(f'<p role="status">{e(say(lang, "stopped"))}</p>')
    if not games:
        if not off:
            body.append(f"<p>{e(say(lang, 'no_history'))}</p>")
    else:
        body.append(f"<h2>{e(say(lang, 'wins'))}</h2>{chart(wins, names, say(lang, 'wins'))}")
        rows = []
        for game in games:
            when = say(lang, "just_now") if game.now else game.finished_at.strftime(
                "%Y-%m-%d %H:%M") if isinstance(game.finished_at, datetime.datetime) else "?"
            who = (names.get(str(game.winner), str(game.winner)) if game.winner is not None
                   else say(lang, "abandoned" if str(game.ended) == "abandoned" else "nobody"))
            rows.append(f"<tr><td>{e(when)}</td><td>{e(who)}</td>"
                        f"<td>{e(final(game.players, names, lang))}</td></tr>")
        head = "".join(f"<th>{e(say(lang, k))}</th>" for k in ("when", "winner", "final"))
        body.append(f"<h2>{e(say(lang, 'games'))}: {len(games)}</h2><table class='games'>"
                    f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return document(lang, "history", "".join(body))


def final(players: Sequence[tuple[int, int, int | None, int | None]],
          names: dict[str, str], lang: str) -> str:
    """How each player stood as a game ended: their chips, who was their Friday, or out:
    "Ana 14 (Friday: Ben) · Ben 0 · Cid out"."""
    def name(seat: int) -> str:
        return names.get(str(seat), str(seat))

    told = []
    for seat, chips, friday, square in players:
        one = f"{name(seat)} {say(lang, 'out') if square is None else chips}"
        if friday is not None:
            one += f" ({say(lang, 'friday')}: {name(friday)})"
        told.append(one)
    return " \u00b7 ".join(told)


def chart(wins: dict[int, int], names: dict[str, str], title: str) -> str:
    """Wins per player as bars (an SVG written here: no script, no library), named for a
    screen reader by what it shows: "Wins: Ana 3, Ben 1"."""
    if not wins:
        return ""
    most = max(wins.values())
    bars = []
    ranked = sorted(wins.items(), key=lambda kv: (-kv[1], kv[0]))
    label = f"{title}: " + ", ".join(f"{names.get(str(seat), str(seat))} {count}"
                                     for seat, count in ranked)
    for i, (seat, count) in enumerate(ranked):
        width = 200 * count / most
        colour = "rgb({},{},{})".format(*SEAT_COLOURS.get(seat, ("", (200, 200, 200)))[1])
        y = i * 28
        bars.append(f'<text x="0" y="{y + 18}">{e(names.get(str(seat), str(seat)))}</text>'
                    f'<rect x="120" y="{y + 4}" width="{width:.0f}" height="20" fill="{colour}"/>'
                    f'<text x="{125 + width:.0f}" y="{y + 19}">{count}</text>')
    return (f'<svg class="chart" viewBox="0 0 360 {28 * len(wins)}" role="img" '
            f'aria-label="{e(label)}">{"".join(bars)}</svg>')


def rules_page(lang: str, rules: HouseRules) -> str:
    squares = []
    for square in BOARD[1:]:
        told = instruction(lang, square.number, rules)
        squares.append(f'<li value="{square.number}"><b>{e(caption(lang, square.number))}</b>'
                       + (f"<br>{e(told)}" if told else "") + "</li>")
    how = "".join(f"<li>{e(line)}</li>" for line in texts(lang).HOW)
    default = HouseRules()
    house = "".join(
        f"<tr{' class=changed' if getattr(rules, name) != getattr(default, name) else ''}>"
        f"<td>{e(ui(lang, 'rule_' + name))}</td>"
        f"<td>{e(format_value(getattr(rules, name)))}</td></tr>" for name in NAMES)
    body = (f"<h1>{e(ui(lang, 'board_title'))}</h1><ol class='squares'>{''.join(squares)}</ol>"
            f"<h2>{e(say(lang, 'how'))}</h2><ul>{how}</ul>"
            f"<h2>{e(say(lang, 'house_rules'))}</h2><table>{house}</table>")
    return document(lang, "rules", body)


def settings_page(view: dict[str, Any], reader: Reading, csrf: str,
                  phones: tuple[dict[str, Any], ...] = ()) -> str:
    """This phone's own language (``reader``: for anyone, paired or not); then the
    table's names, language, voice, storyteller, brightness: each a form the script sends
    as JSON with the CSRF token; the paired phones (``phones``: each its ``id``, ``kind``,
    the days it ``paired`` and was ``used`` as ISO dates or "", and whether it is ``me``),
    each forgettable; without a pairing, the way to pair first."""
    lang = reader.language
    body = [f"<h1>{e(say(lang, 'settings'))}</h1>", reading_form(reader)]
    if not csrf:
        body.append(pair_form(lang))
        return document(lang, "settings", "".join(body))
    body.append(f'<p class="ok">{e(say(lang, "paired"))}</p>')
    body.append(f'<p class="note">{e(say(lang, "home_screen"))}</p>')  # (an app of its own
    # needs a service worker, which a browser allows on https:// or localhost only)
    given, names = view.get("given", {}), view.get("names", {})
    seats = [s for s in view.get("seats") or []] or list(range(1, int(view.get("most", 8)) + 1))
    game = view.get("game")
    if game is not None:
        seats = [p["seat"] for p in game["players"]]
    fields = "".join(
        f'<label>{e(say(lang, "seat"))} {s} <input name="{s}" maxlength="{NAME_LETTERS}" '
        f'value="{e(given.get(str(s), ""))}" data-was="{e(given.get(str(s), ""))}" '
        f'placeholder="{e(names.get(str(s), ""))}"></label>'
        for s in seats)
    body.append(f'<form class="intent" data-api="/api/names" data-kind="names">'
                f'<h2>{e(say(lang, "names"))}</h2>{fields}'
                f'<button>{e(say(lang, "save"))}</button></form>')
    settings = view.get("settings", {})
    chosen = settings.get("language")
    options = "".join(f'<option value="{code}"{" selected" if code == chosen else ""}>'
                      f"{e(language_name(code))}</option>" for code in LANGUAGES)
    # Each of these is saved as it is changed (no Save button of its own: five of them
    # were one page's), the switches as switches, the brightness with its value.
    body.append(f'<form class="intent" data-api="/api/language" data-auto><label>'
                f'{e(say(lang, "table_language"))} <select name="value">{options}</select>'
                '</label></form>')
    for key in ("voice", "story"):
        on = bool(settings.get(key))
        body.append(f'<form class="intent" data-api="/api/{key}" data-kind="switch" data-auto>'
                    f'<label class="switch">{e(say(lang, key))} <input type="checkbox" '
                    f'role="switch" name="value"{" checked" if on else ""}></label></form>')
    level = int(settings.get("brightness", 4))
    body.append(f'<form class="intent" data-api="/api/brightness" data-kind="number" data-auto>'
                f'<label>{e(say(lang, "brightness"))} <output>{level}/4</output>'
                f'<input type="range" name="value" min="1" max="4" value="{level}"></label>'
                '</form>')
    body.append('<p id="said" role="status"></p>')
    body.append(phones_section(phones, lang))
    body.append(hardware_section(view.get("hardware") or {}, lang))
    return document(lang, "settings", "".join(body), csrf=csrf)


def reading_form(reader: Reading) -> str:
    """The language this phone reads the page in: its own choice, or (the first option)
    none, its browser's or else the table's. A plain form: sent as it is changed (the
    script), or with its button where there is no script; the answer is Settings anew."""
    lang = reader.language
    default = (say(lang, "as_browser", name=language_name(reader.browser)) if reader.browser
               else say(lang, "as_table", name=language_name(reader.table)))
    options = [f'<option value=""{"" if reader.chosen else " selected"}>{e(default)}</option>']
    options += [f'<option value="{code}"{" selected" if code == reader.chosen else ""}>'
                f"{e(language_name(code))}</option>" for code in LANGUAGES]
    return (f'<form method="post" action="/language" class="reading" data-auto><label>'
            f'{e(say(lang, "page_language"))} <select name="lang">{"".join(options)}'
            f'</select></label><noscript><button>{e(say(lang, "choose"))}</button></noscript>'
            '</form>')


def phones_section(phones: tuple[dict[str, Any], ...], lang: str) -> str:
    """The paired phones, newest first, each with a Forget button (this one marked)."""
    rows = []
    for phone in reversed(phones):
        what = [phone.get("kind", "").replace("/", " · ") or "?"]
        if phone.get("me"):
            what.append(f"({say(lang, 'this_phone')})")
        days = [say(lang, word, day=phone[key]) for key, word in (("paired", "since"),
                                                                   ("used", "used"))
                if phone.get(key)]
        rows.append(f'<li><form class="intent" data-api="/api/forget" data-kind="forget">'
                    f'<input type="hidden" name="value" value="{e(phone["id"])}">'
                    f'{e(" ".join(what))} <small>{e(" · ".join(days))}</small> '
                    f'<button>{e(say(lang, "forget"))}</button></form></li>')
    return (f'<section class="phones"><h2>{e(say(lang, "phones"))}</h2><ul>{"".join(rows)}'
            f'</ul><p><small>{e(say(lang, "phones_note", days=PHONE_DAYS))}</small></p>'
            '</section>')


ROTATIONS = ("0°", "90°", "180°", "270°")  # luma's rotate 0-3: quarter turns clockwise
ADDRESSES = (0x3C, 0x3D)  # the two an SSD1306-class panel's jumper chooses between


def hardware_section(hardware: dict[str, Any], lang: str) -> str:
    """The panel, the amplifier, the pins, as a paired phone changes them, and the header
    with what takes each pin. Each field carries the value in force (``data-was``): the
    script sends only what was changed; the table checks it as it checks its config."""
    now, panels = hardware.get("settings") or {}, hardware.get("panels") or {}
    if not now:
        return ""

    def field(key: str, label: str, control: str) -> str:
        return f'<label>{e(say(lang, label))} {control}</label>'

    def select(key: str, kind: str, options: Sequence[tuple[object, str]], was: object) -> str:
        items = "".join(f'<option value="{e(value)}"{" selected" if value == was else ""}>'
                        f"{e(text)}</option>" for value, text in options)
        return f'<select name="{key}" data-type="{kind}" data-was="{e(was)}">{items}</select>'

    def text(key: str, kind: str, was: str, mode: str = "numeric") -> str:
        return (f'<input name="{key}" data-type="{kind}" data-was="{e(was)}" value="{e(was)}" '
                f'inputmode="{mode}" maxlength="40">')

    def box(key: str) -> str:
        was = "true" if now.get(key) else "false"
        return (f'<input type="checkbox" name="{key}" data-type="bool" data-was="{was}"'
                f'{" checked" if now.get(key) else ""}>')

    def pins(key: str) -> str:
        return ", ".join(str(p) for p in now.get(key) or [])

    size = f'{now.get("display.width")}x{now.get("display.height")}'
    sizes = sorted({f"{w}x{h}" for shapes in panels.values() for w, h in shapes},
                   key=lambda text: [int(n) for n in text.split("x")])
    fields = [
        field("display.display", "panel", select(
            "display.display", "text", [(name, name) for name in panels],
            now.get("display.display"))),
        field("display.size", "size", select("display.size", "size",
                                             [(s, s) for s in sizes], size)),
    ]
    if hardware.get("interface") == "i2c":
        fields.append(field("display.i2c_address", "address", select(
            "display.i2c_address", "int", [(a, f"0x{a:02X}") for a in ADDRESSES],
            now.get("display.i2c_address"))))
    fields += [
        field("display.rotate", "rotate", select(
            "display.rotate", "int", list(enumerate(ROTATIONS)), now.get("display.rotate"))),
        field("display.contrast", "contrast",
              text("display.contrast", "int", str(now.get("display.contrast")))),
        field("voice.i2s_amplifier", "amplifier", box("voice.i2s_amplifier")),
        field("pins.button", "button_pin", text("pins.button", "int", str(now.get(
            "pins.button")))),
        field("pins.seats", "seat_pins", text("pins.seats", "pins", pins("pins.seats"),
                                              "text")),
        field("pins.use_leds", "leds", box("pins.use_leds")),
        field("pins.leds", "led_pins", text("pins.leds", "pins", pins("pins.leds"), "text")),
        field("pins.use_buzzer", "buzzer", box("pins.use_buzzer")),
        field("pins.buzzer", "buzzer_pin", text("pins.buzzer", "int", str(now.get(
            "pins.buzzer")))),
    ]
    def taken(pin: dict[str, Any]) -> str:
        """What takes a pin, in the page's words: "Seat 3", "LED 3", "ROLL"…"""
        what = str(pin.get("taken") or "")
        seat = re.fullmatch(r"pins\.(seats|leds)\[(\d+)\]", what)
        if seat:
            return f'{say(lang, "seat") if seat.group(1) == "seats" else "LED"} {seat.group(2)}'
        return {"pins.button": "ROLL", "pins.buzzer": say(lang, "buzzer")}.get(what, what)

    keep_hidden = "" if hardware.get("trial") else " hidden"
    rows = []
    header = hardware.get("header") or []
    for left, right in zip(header[0::2], header[1::2], strict=False):
        rows.append("<tr>" + "".join(
            f'<td class="{"used" if pin.get("taken") else ""}">{e(taken(pin))}</td>'
            f'<td>{e(pin.get("name"))}</td><th>{e(pin.get("pin"))}</th>' if side == 0 else
            f'<th>{e(pin.get("pin"))}</th><td>{e(pin.get("name"))}</td>'
            f'<td class="{"used" if pin.get("taken") else ""}">{e(taken(pin))}</td>'
            for side, pin in enumerate((left, right))) + "</tr>")
    return (f'<section class="hardware"><h2>{e(say(lang, "hardware"))}</h2>'
            f'<p>{e(say(lang, "restart_note"))}</p>'
            f'<form class="intent" data-api="/api/hardware" data-kind="hardware">'
            f'{"".join(fields)}<button>{e(say(lang, "try"))}</button></form>'
            f'<form class="intent" id="keep" data-api="/api/keep"{keep_hidden}>'
            f'<p>{e(say(lang, "on_trial"))}</p><button>{e(say(lang, "keep"))}</button></form>'
            f'<p id="said-hardware" role="status"></p>'
            f'<h3>{e(say(lang, "header"))}</h3><table class="header"><tr>'
            f'<th>{e(say(lang, "taken"))}</th><th>{e(say(lang, "pin_name"))}</th>'
            f'<th>{e(say(lang, "pin"))}</th><th>{e(say(lang, "pin"))}</th>'
            f'<th>{e(say(lang, "pin_name"))}</th><th>{e(say(lang, "taken"))}</th></tr>'
            f'{"".join(rows)}</table></section>')


def pair_form(lang: str, problem: str = "") -> str:
    said = f'<p class="bad">{e(problem)}</p>' if problem else ""
    return (f'<section class="pair"><h2>{e(say(lang, "pair_title"))}</h2>'
            f'<p>{e(say(lang, "pair_why"))}</p>{said}'
            f'<form class="intent" data-api="/api/pair/request" data-open><button>'
            f'{e(say(lang, "pair_ask"))}</button></form>'
            f'<form class="intent" data-api="/api/pair" data-open data-kind="code">'
            f'<label>{e(say(lang, "pair_code"))} <input name="code" inputmode="numeric" '
            f'autocomplete="one-time-code" maxlength="7" pattern="[0-9 ]*"></label>'
            f'<button>{e(say(lang, "pair_send"))}</button></form><p id="said" role="status">'
            f'</p></section>')
