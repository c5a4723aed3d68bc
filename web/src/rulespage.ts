// The rules pages: a short summary of each game in English and Swedish, and every option the server offers
// with its meaning (from GET /api/options/{game}).
import { api, type GameKind } from "./api";
import { h } from "./dom";
import { lang, pick, t } from "./i18n";
import { choiceWords, optionWords, refsIn, withoutRefs } from "./words";

type Section = [string, string[]];

const MULLE: Record<"en" | "sv", Section[]> = {
  en: [
    [
      "The game",
      [
        "Mulle is the Swedish casino game played with two packs shuffled together (104 cards), by 2 players, 3 players, or 4 (alone or as two teams with partners opposite).",
        "Each player gets 8 cards and 8 are laid face up on the table (the 8+8 deal; 5+5 and 4+8 are options). When every hand is empty the players get 8 more; the table gets none. The dealer calls “båt” before the last deal.",
        "On your turn you play exactly one card from your hand: capture, build, or trail.",
      ],
    ],
    [
      "Card values",
      [
        "On the table: ace 1, 2–10 their pips, jack 11, queen 12, king 13.",
        "From the hand: the same, except ace 14, 2♠ (“lillan”) 15 and 10♦ (“storan”) 16. So an ace from the hand never takes a single ace from the table.",
      ],
    ],
    [
      "Moves",
      [
        "Capture (ta in): your card takes table cards and sums worth its value, and every build of that value. You must take everything you can (all equal cards, all builds of that value, a maximal set of sums).",
        "Pure mulle: if your card's identical twin lies loose, the capture takes that twin only (plus builds of the same value).",
        "Build (bygga): put your card on one loose card; the value is their sum, and you must hold a card of that value. Scoring cards (aces, 2♠, 10♦) never build.",
        "Raise / build down: add a card to an open build to raise it, or subtract to build it down (not below 2).",
        "Package (paketera) a hand card plus a loose card that together make a build's value, or lay on (ligger) a card of the build's value: the build is then locked (no more raising).",
        "Trail (lägga ut): lay a card loose — only when you cannot capture and own no build.",
        "You must always keep a card that can take each build you own.",
      ],
    ],
    [
      "Mulle and tabbe",
      [
        "Mulle: capturing both copies of the same card in one play. It scores the card's value (2–10, J 11, Q 12, K 13, A 14; 2♠ 15, 10♦ 16 by default).",
        "Tabbe: a capture that clears the table scores 1 — but never on the very last play of the round.",
        "When the round ends, the cards still on the table go to the last player (or team) who captured.",
      ],
    ],
    [
      "Scoring",
      [
        "Each spade 1; ace of spades 2; 2♠ (lillan) 2; 10♦ (storan) 2; every other ace 1 — 40 card points a round; plus mulle points and 1 per tabbe.",
        "The game is played to 100 (or 200, or one round). Kryp-mulle turns it around: points are to be avoided and the lowest total wins.",
      ],
    ],
  ],
  sv: [
    [
      "Spelet",
      [
        "Mulle är det svenska kasinospelet med två kortlekar ihopblandade (104 kort), för 2 spelare, 3 spelare eller 4 (var för sig eller i två lag med partnern mittemot).",
        "Varje spelare får 8 kort och 8 läggs med framsidan upp på bordet (8+8; 5+5 och 4+8 kan väljas). När alla händer är tomma får spelarna 8 nya; bordet får inga. Givaren säger ”båt” inför sista given.",
        "När det är din tur spelar du exakt ett kort från handen: ta in, bygga eller lägga ut.",
      ],
    ],
    [
      "Kortens värden",
      [
        "På bordet: ess 1, 2–10 sina prickar, knekt 11, dam 12, kung 13.",
        "Från handen: samma, utom ess 14, spader 2 (”lillan”) 15 och ruter 10 (”storan”) 16. Ett ess från handen tar alltså aldrig ett ensamt ess på bordet.",
      ],
    ],
    [
      "Drag",
      [
        "Ta in: ditt kort tar bordets kort och summor värda kortets värde, och varje bygge med det värdet. Du måste ta allt du kan (alla lika kort, alla byggen med värdet, en maximal uppsättning summor).",
        "Ren mulle: ligger ditt korts tvilling löst på bordet tar intaget bara tvillingen (och byggen med samma värde).",
        "Bygga: lägg ditt kort på ett löst kort; värdet är summan, och du måste ha ett kort med det värdet kvar. Poängkort (ess, lillan, storan) bygger aldrig.",
        "Bygga upp / bygga ner: lägg ett kort på ett öppet bygge för att höja eller sänka värdet (inte under 2).",
        "Paketera ett handkort och ett löst kort som tillsammans blir byggets värde, eller lägga på (ligger) ett kort med byggets värde: då ligger bygget och kan inte byggas om.",
        "Lägga ut: lägg ett kort löst — bara när du inte kan ta in och inte äger något bygge.",
        "Du måste alltid behålla ett kort som kan ta varje bygge du äger.",
      ],
    ],
    [
      "Mulle och tabbe",
      [
        "Mulle: att ta båda exemplaren av samma kort i ett drag. Det ger kortets värde (2–10, kn 11, d 12, k 13, ess 14; lillan 15, storan 16 som standard).",
        "Tabbe: ett intag som tömmer bordet ger 1 poäng — men aldrig på omgångens allra sista drag.",
        "När omgången är slut får den som tog in sist (eller laget) korten som ligger kvar.",
      ],
    ],
    [
      "Poäng",
      [
        "Varje spader 1; spader ess 2; lillan 2; storan 2; övriga ess 1 — 40 kortpoäng per omgång; därtill mullepoäng och 1 per tabbe.",
        "Man spelar till 100 (eller 200, eller en omgång). Kryp-mulle vänder på det: poäng ska undvikas och lägst summa vinner.",
      ],
    ],
  ],
};

const CRIBBAGE: Record<"en" | "sv", Section[]> = {
  en: [
    [
      "The game",
      [
        "Cribbage for 2, 3 or 4 (partners opposite), to 121 or 61. Everyone cuts; the lowest card deals first, and the deal passes to the left.",
        "Two players get 6 cards and lay 2 away to the dealer's crib; three and four players get 5 and lay 1 away (with three, one more card goes to the crib).",
        "The player left of the dealer cuts; the top card is the starter. A jack starter gives the dealer 2 (his heels).",
      ],
    ],
    [
      "The play",
      [
        "From the dealer's left, players lay cards in turn, calling the running count; it may not pass 31. Who cannot lay a card says go.",
        "Score for the card you lay: 15 is 2, 31 is 2, a pair 2, three of a kind 6, four 12, a run of 3 or more its length; the last card before 31 is not reached scores 1 (go).",
      ],
    ],
    [
      "The show",
      [
        "Each hand, with the starter, is counted from the dealer's left, the dealer last, then the crib: fifteens 2 each, pairs 2 each, runs their length, a flush 4 (5 with the starter; the crib only with all five), the jack of the starter's suit 1 (nobs).",
        "Counting out ends the game at once: the first to the target wins (in Lowball, the first to the target loses).",
      ],
    ],
    [
      "Muggins",
      [
        "With Muggins you count your own hand and crib: announce a number from 0 to 29; it is pegged at once.",
        "Then each opponent in turn, from your left, may accept, call muggins naming the points they think you missed (they get the missed points, at most the number named; if nothing was missed you get the number named), or call overcount (a correct call moves the excess to the caller; a wrong one changes nothing). The first call settles the count; if all accept, the count stands even if it is wrong.",
        "After the count is settled, the true breakdown is shown to everyone. The play is still scored automatically. Muggins cannot be combined with Lowball: if both are chosen, Lowball is played without Muggins.",
      ],
    ],
  ],
  sv: [
    [
      "Spelet",
      [
        "Cribbage för 2, 3 eller 4 (partner mittemot), till 121 eller 61. Alla kuperar; lägst kort ger först, och given går vänsterut.",
        "Två spelare får 6 kort och lägger 2 i givarens krubba; tre och fyra spelare får 5 och lägger 1 (med tre går ett kort till till krubban).",
        "Spelaren till vänster om givaren kuperar; översta kortet är startkortet. En knekt som startkort ger givaren 2 (his heels).",
      ],
    ],
    [
      "Spelet med korten",
      [
        "Från givarens vänster lägger spelarna kort i tur och säger summan; den får inte gå över 31. Den som inte kan lägga säger go.",
        "Poäng för kortet du lägger: 15 ger 2, 31 ger 2, ett par 2, tretal 6, fyrtal 12, en följd på 3 eller fler sin längd; sista kortet när 31 inte nås ger 1 (go).",
      ],
    ],
    [
      "Räkningen",
      [
        "Varje hand räknas med startkortet, från givarens vänster och givaren sist, sedan krubban: femtonor 2 var, par 2 var, följder sin längd, färg 4 (5 med startkortet; krubban bara med alla fem), knekten i startkortets färg 1 (nobs).",
        "Den som räknar sig i mål vinner direkt (i ett omvänt parti förlorar den som först når målet).",
      ],
    ],
    [
      "Muggins",
      [
        "Med Muggins räknar du själv din hand och krubba: meddela ett tal från 0 till 29; det peggas direkt.",
        "Sedan får varje motståndare i tur, från din vänster, godta, ropa muggins med de poäng hen tror att du missade (hen får de missade poängen, högst talet hen nämnde; missades inget får du talet), eller ropa överräkning (ett riktigt rop flyttar överskottet till den som ropade; ett felaktigt ändrar inget). Det första utropet avgör; godtar alla står räkningen även om den är fel.",
        "När räkningen är avgjord visas den riktiga uppdelningen för alla. Spelet med korten räknas fortfarande automatiskt. Muggins kan inte kombineras med omvänt parti: väljs båda spelas det omvända partiet utan Muggins.",
      ],
    ],
  ],
};

export function renderRules(main: HTMLElement, game: GameKind): void {
  const sections = (game === "mulle" ? MULLE : CRIBBAGE)[lang()];
  const art = h(
    "article",
    { class: "panel rules", id: `rules-${game}` },
    h("h1", {}, `${t("rules")}: ${game === "mulle" ? t("mulle") : t("cribbage")}`),
    sections.map(([title, paras]) => [h("h2", {}, title), h("ul", {}, paras.map((p) => h("li", {}, p)))]),
  );
  const opts = h("section", { class: "options-doc" }, h("h2", {}, t("rulesOptions")), h("p", {}, t("loading")));
  art.append(opts);
  main.append(art);
  api
    .options(game)
    .then((doc) => {
      const dl = h("dl", {});
      // the spec references of the options' help, shown only behind the "rule details" disclosure (issue #11)
      const refs: HTMLElement[] = [];
      for (const o of doc.options) {
        const label = optionWords(game, o.key, "label", lang(), pick(o.label_en, o.label_sv));
        const help = optionWords(game, o.key, "help", lang(), pick(o.help_en, o.help_sv));
        const said = (v: unknown): string =>
          typeof v === "boolean" ? t(v ? "optOn" : "optOff") : choiceWords(game, o.key, v as string | number, lang());
        let range = "";
        if (o.choices) range = ` ${t("optChoices")}: ${o.choices.map((c) => said(c)).join(" / ")}.`;
        else if (o.type === "int" && o.min != null && o.max != null)
          range = ` ${t("optRange", { min: o.min, max: o.max })}.`;
        dl.append(
          h("dt", { "data-key": o.key }, label),
          h(
            "dd",
            {},
            withoutRefs(help)[0],
            range,
            h("span", { class: "muted" }, ` — ${t("default")}: ${said(o.default)}`),
          ),
        );
        const cited = refsIn(help);
        if (cited.length) refs.push(h("li", {}, `${label}: ${cited.join(", ")}`));
      }
      const details = refs.length
        ? h("details", { class: "rule-details" }, h("summary", {}, t("ruleDetails")), h("ul", {}, refs))
        : null;
      opts.replaceChildren(h("h2", {}, t("rulesOptions")), dl, details ?? "");
    })
    .catch((e: Error) => opts.append(h("p", { class: "msg error" }, e.message)));
}
