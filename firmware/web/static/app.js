// The companion page's script: the live part of Now from Server-Sent Events, and each
// form sent as JSON with the CSRF token. No HTML is built here from data: the server
// writes every fragment, escaped.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf"]');
  const said = () => document.getElementById("said");

  // Back to a page the browser kept (its back/forward cache): shown at once, and Now
  // follows the table again. The stream is closed as the page is put away, so that the
  // browser may keep it.
  let events = null;
  let heard = new Date();  // when Now was last heard from the table
  const banner = () => document.getElementById("lost");
  function follow() {
    const now = document.getElementById("now");
    events = new EventSource("/events");
    events.addEventListener("now", (event) => {
      const data = JSON.parse(event.data);
      if (data.lang !== document.body.dataset.lang) {
        location.reload();
        return;
      }
      now.innerHTML = data.html;
      document.body.dataset.version = data.version;
      heard = new Date();
      document.body.classList.remove("lost");
      banner().hidden = true;
    });
    events.addEventListener("error", () => {  // the link is down: said, and Now greyed
      if (document.body.classList.contains("lost")) return;  // (said once, not each try)
      document.body.classList.add("lost");
      const time = heard.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      const lost = banner();
      lost.textContent = lost.dataset.said + " (" + lost.dataset.asOf.replace("{time}", time) + ")";
      lost.hidden = false;
    });
  }
  const live = document.body.hasAttribute("data-live");
  if (live) follow();
  window.addEventListener("pagehide", () => {
    if (events) events.close();
    events = null;
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    document.body.dataset.restored = "kept";
    if (live && !events) follow();
  });

  function body(form) {
    const kind = form.dataset.kind || "value";
    if (kind === "names") {  // the seats changed, each with its name as it was shown:
      const names = {};  // a seat named on another phone since is refused, not undone
      const was = {};
      for (const input of form.querySelectorAll("input")) {
        if (input.value.trim() === input.dataset.was) continue;
        names[input.name] = input.value.trim();
        was[input.name] = input.dataset.was;
      }
      return { names: names, was: was };
    }
    if (kind === "switch") return { value: form.querySelector("input").checked };
    if (kind === "number") return { value: Number(form.querySelector("input").value) };
    if (kind === "code") return { code: form.querySelector("input").value.replace(/\s/g, "") };
    if (kind === "hardware") {  // only what was changed, typed as the config takes it
      const changes = {};
      for (const field of form.querySelectorAll("[data-type]")) {
        const type = field.dataset.type;
        const value = type === "bool" ? field.checked : field.value.trim();
        if (String(value) === field.dataset.was) continue;
        if (type === "size") {
          const [width, height] = value.split("x").map(Number);
          changes["display.width"] = width;
          changes["display.height"] = height;
        } else if (type === "int") {
          changes[field.name] = Number(value);
        } else if (type === "pins") {
          changes[field.name] = value.split(/[\s,]+/).filter(Boolean).map(Number);
        } else {
          changes[field.name] = value;
        }
      }
      return { changes: changes };
    }
    const field = form.querySelector("select, input");
    return field ? { value: field.value } : {};
  }

  for (const form of document.querySelectorAll("form[data-auto]")) {
    form.addEventListener("change", () => {  // saved as changed (Safari before 16 has
      if (form.requestSubmit) form.requestSubmit();  // no requestSubmit: the event, then;
      else if (form.classList.contains("intent"))  // a plain form is sent as it is)
        form.dispatchEvent(new Event("submit", { cancelable: true }));
      else form.submit();
    });
    const shown = form.querySelector("output");
    const range = form.querySelector('input[type="range"]');
    if (shown && range) range.addEventListener("input", () => {
      shown.textContent = range.value + "/" + range.max;
    });
  }

  for (const form of document.querySelectorAll("form.intent")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const headers = { "Content-Type": "application/json" };
      if (csrf) headers["X-CSRF-Token"] = csrf.content;
      let answer = { said: "…" };
      try {
        const response = await fetch(form.dataset.api, {
          method: "POST", headers: headers, body: JSON.stringify(body(form)),
          credentials: "same-origin",
        });
        answer = await response.json();
        if (response.ok && form.dataset.kind === "names") {  // what is now shown
          for (const input of form.querySelectorAll("input")) input.dataset.was = input.value.trim();
        }
        if (response.ok && ["/api/pair", "/api/language", "/api/forget"].includes(form.dataset.api)) {
          location.reload();
          return;
        }
      } catch (error) {
        answer = { said: String(error) };
      }
      const hardware = form.closest(".hardware");
      const keep = document.getElementById("keep");
      if (keep && hardware) keep.hidden = !answer.trial;
      const where = hardware ? document.getElementById("said-hardware") : said();
      if (where) where.textContent = answer.said || "";
    });
  }
})();
