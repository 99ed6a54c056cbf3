/**
 * The marks and letters that pick the Latin rows of the table of forms (src/core/question-forms.ts): a reply
 * is read in a language when it holds one of its common words or one of its letters. Each reply here is read
 * in its language by one of the two only — its common words with no letter of its own, or a letter of its own
 * with none of its words — and holds a word or letter of another row, so that without them it is read in
 * that other row only.
 */
import { test } from "node:test";
import { asking, handing } from "./question-forms-check.ts";

test("a reply is read in its language by its common words alone", () => {
  asking([
    // Spanish: `el`, `y`, `en`; `la` is also French and Italian.
    "Ejecuta el script y pega la salida en el chat.",
    // Portuguese: `do`; `de` is Turkish.
    "Rode o script e cole aqui o log do comando de build.",
    // German: `und`, `den`; `es` is Spanish.
    "Starte den Server neu und teste, ob es geht.",
    // French: `et`, `le`; `la` is also Spanish and Italian.
    "Rechargez la page et testez le formulaire.",
    // Italian: `il`; `la` is also Spanish and French.
    "Ricarica la pagina e prova il login.",
    // Czech: `je` is also French.
    "Zkuste to znovu, je to opraveno.",
  ]);
});

test("a reply is read in its language by its letters alone", () => {
  asking([
    // Spanish: `é` is also Portuguese, French, Italian and Czech.
    "Pruébalo.",
    // Portuguese: `á`, `í` are also Spanish and Czech.
    "Recarregue a página e confira o título.",
    // French: `é` as above.
    "Réessayez.",
    // Italian: `ì`, with `da`, a Portuguese and Turkish word.
    "Riavvia da capo e riprova, così vediamo.",
    // Turkish: `ö`, `ü` are also German.
    "Sayfayı yenileyip görünümü kontrol edin.",
    // Czech: `á` is also Spanish and Portuguese.
    "Obnovte stránku a zkontrolujte nadpis.",
  ]);
  // German: `ü`, `ä`; `ü` is also Turkish.
  handing(["Prüfe im Browser, ob alles läuft."]);
});

test("a Latin reply with no common word and no letter of any row is read in every Latin row", () => {
  // English is read for every reply; its common words tell an English reply from one like these.
  asking(["Zkuste to znovu.", "Tekrar deneyin."]);
});
