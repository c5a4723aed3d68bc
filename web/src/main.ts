// The page: header (language switch), router (#/ lobby, #/rules/<game>, #/game/<id>, ?join=<id>&invite=<code>).
import "./style.css";
import { api, ApiError, forgetSeat, plainName, saveSeat, savedSeats, seatFor, type GameKind, type GameSummary, type OptionsDoc } from "./api";
import { clear, h } from "./dom";
import { lang, onLangChange, setLang, t } from "./i18n";
import { renderLobby, restError } from "./lobby";
import { has, optionWords, template } from "./words";
import { renderRules } from "./rulespage";
import { GamePage } from "./gamepage";

const app = document.getElementById("app")!;
let page: { destroy(): void; rerender?(): void } | null = null;

function header(): HTMLElement {
  const langBtn = (l: "en" | "sv", label: string) =>
    h(
      "button",
      {
        class: `lang ${lang() === l ? "on" : ""}`,
        "aria-pressed": String(lang() === l),
        lang: l,
        onclick: () => setLang(l),
      },
      label,
    );
  return h(
    "header",
    { class: "top" },
    h("a", { class: "brand", href: "#/" }, h("span", { class: "logo", "aria-hidden": "true" }, "♠♥"), t("appName")),
    h(
      "nav",
      { "aria-label": t("menu") },
      h("a", { href: "#/" }, t("lobby")),
      h("a", { href: "#/rules/mulle" }, `${t("rules")}: ${t("mulle")}`),
      h("a", { href: "#/rules/cribbage" }, `${t("rules")}: ${t("cribbage")}`),
    ),
    h("div", { class: "langs", role: "group", "aria-label": t("language") }, langBtn("en", "EN"), langBtn("sv", "SV")),
  );
}

function route(): void {
  document.documentElement.lang = lang();
  const params = new URLSearchParams(location.search);
  const hash = location.hash.replace(/^#/, "") || "/";
  const main = h("main", { id: "main" });
  const gameMatch = hash.match(/^\/game\/([^/?]+)/);
  if (page && gameMatch && page instanceof GamePage && page.gameId === gameMatch[1]) {
    // Same game: only the language changed; keep the connection.
    clear(app);
    app.append(header(), page.root);
    page.rerender?.();
    return;
  }
  page?.destroy();
  page = null;
  clear(app);
  app.append(header(), main);
  if (params.get("join") && params.get("invite")) {
    renderJoin(main, params.get("join")!, params.get("invite")!);
    return;
  }
  if (gameMatch) {
    const gp = new GamePage(decodeURIComponent(gameMatch[1]));
    page = gp;
    main.replaceWith(gp.root);
    return;
  }
  const rules = hash.match(/^\/rules\/(mulle|cribbage)/);
  if (rules) {
    renderRules(main, rules[1] as GameKind);
    return;
  }
  renderLobby(main, {
    openGame: (id) => (location.hash = `#/game/${id}`),
  });
}

/** The rules of a game in words: every option that differs from the standard profile ("Game length: one round"),
 * or "the standard rules". */
function rulesWords(s: GameSummary, doc: OptionsDoc): string {
  const out: string[] = [];
  for (const o of doc.options) {
    const v = s.rules[o.key];
    if (v === undefined || JSON.stringify(v) === JSON.stringify(o.default) || o.key === "players") continue;
    const label = optionWords(s.game, o.key, "label", lang(), lang() === "sv" ? o.label_sv : o.label_en);
    const k = typeof v === "boolean" ? `option.${v}` : `option.${o.key}.${v}`;
    const said = has(s.game, k) ? String(template(s.game, k, lang())) : String(v);
    out.push(`${label}: ${said}`);
  }
  return out.length ? out.join("; ") : t("rulesStandard");
}

function renderJoin(main: HTMLElement, id: string, code: string): void {
  const name = h("input", {
    id: "join-name",
    value: localStorage.getItem("kortbord.name") ?? "",
    autocomplete: "nickname",
    maxlength: "40",
  });
  const msg = h("p", { class: "msg", role: "status" });
  const info = h("p", { id: "join-info" }, t("loading"));
  const rules = h("p", { class: "muted", id: "join-rules" });
  const btn = h("button", { class: "primary", id: "join-btn", disabled: true }, t("joinBtn"));
  let summary: GameSummary | null = null;
  // This browser holds a seat of the game already: the inviter opening the link sent to a friend (or the friend
  // opening it again).  Joining would spend the friend's invite and overwrite the seat kept here -- its token is
  // the only proof of that seat, so the seat would be lost and the game stuck.  Offer the own seat instead.
  const mine = seatFor(id);
  const refuse = (text: string) => {
    msg.textContent = text;
    msg.className = "msg error";
    btn.disabled = true;
    name.disabled = true;
    btn.classList.add("used");
  };
  Promise.all([api.game(id), api.invite(id, code).then(() => null, (e: unknown) => e)])
    .then(async ([s, bad]) => {
      summary = s;
      const host = s.seats.find((x) => x.kind === "human" && x.claimed && x.name)?.name;
      const game = s.game === "mulle" ? t("mulle") : t("cribbage");
      info.textContent = host ? t("invitedBy", { name: host, game, n: s.players }) : t("invitedAnon", { game, n: s.players });
      try {
        rules.textContent = `${t("rulesHere")}: ${rulesWords(s, await api.options(s.game))}`;
      } catch {
        rules.textContent = "";
      }
      if (bad instanceof ApiError) refuse(bad.code === "game_over" ? t("linkOver") : t("linkUsed"));
      else if (bad) refuse(t("linkUsed"));
      else if (mine) refuse(t("alreadySeated", { n: mine.seat + 1 })); // (the link to the own seat is below)
      else btn.disabled = false;
    })
    .catch(() => {
      info.textContent = t("invalidLink");
      refuse(t("linkUsed"));
    });
  const go = async () => {
    if (btn.disabled || seatFor(id)) return;
    localStorage.setItem("kortbord.name", name.value);
    try {
      const r = await api.join(id, code, plainName(name.value) || undefined);
      saveSeat({
        game_id: id,
        game: summary?.game ?? "mulle",
        seat: r.seat,
        token: r.token,
        created: new Date().toISOString(),
      });
      history.replaceState(null, "", `/#/game/${encodeURIComponent(id)}`);
      route();
    } catch (e) {
      msg.textContent = t("joinFailed", { msg: restError(summary?.game ?? "mulle", e) });
      msg.className = "msg error";
    }
  };
  btn.addEventListener("click", () => void go());
  main.append(
    h(
      "section",
      { class: "panel join" },
      h("h1", {}, t("joinTitle")),
      info,
      rules,
      h("label", { for: "join-name" }, t("yourName")),
      name,
      btn,
      msg,
      mine ? h("a", { class: "button primary", id: "join-own", href: `/#/game/${encodeURIComponent(id)}` }, t("openOwnSeat")) : null,
    ),
  );
  name.addEventListener("keydown", (e) => {
    if (e.key === "Enter") void go();
  });
}

onLangChange(route);
window.addEventListener("hashchange", route);
route();

// For the tests and the curious: the saved seats.
(window as unknown as { kortbord: unknown }).kortbord = { savedSeats, forgetSeat };
