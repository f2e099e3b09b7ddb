/* Why a move is refused. Legality itself is decided by the direct check
 * (legal.c, dl_is_legal); this file only finds the first rule the move
 * breaks and says it in plain words, for the table and the tutor. Nothing
 * here lists the position's moves. */
#include <stdarg.h>
#include <stdio.h>

#include "legal.h"
#include "notation.h"

typedef struct {
    const dl_State *s;
    const dl_Move *m;
    char *buf;
    size_t cap;
    int seat, own, v; /* v: value of the played card (0 for face cards) */
    char card[8];     /* the played card's name */
    char ownname[32]; /* "plain declaration of 8", "group of 8s" */
    dl_Set rest;      /* the hand after playing the card */
} Why;

static const char *say(Why *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->buf, w->cap, fmt, ap);
    va_end(ap);
    return w->buf;
}

static const char *const RANKNAME[13] = {"A", "2", "3", "4", "5", "6", "7",
                                         "8", "9", "10", "J", "Q", "K"};

static unsigned decl_mask(const dl_Move *m) { return (unsigned)(m->take >> DL_DECL_SHIFT) & 0xF; }

/* The id of the turn's rule (D9; K2 in Kontsina) and of the round's end
 * (D22; K3): each base game's refusals cite its own rules. */
static const char *turn_id(const dl_State *s) { return s->rules.capture == DL_CAPTURE_ONE ? "K2" : "D9"; }
static const char *end_id(const dl_State *s) { return s->rules.capture == DL_CAPTURE_ONE ? "K3" : "D22"; }

static const char *phase_check(Why *w)
{
    const dl_State *s = w->s;
    const bool decision = w->m->kind == DL_CLAIM || w->m->kind == DL_KEEP;
    if (s->phase == DL_PHASE_ROUND_OVER || s->phase == DL_PHASE_MATCH_OVER)
        return say(w, "%s: the round is over; no card can be played until the next deal", end_id(s));
    if (s->phase == DL_PHASE_CLAIM && !decision)
        return say(w, "V-face-card-claim: seat %d must first claim a redeal or keep the cards",
                   s->turn);
    if (decision && !s->rules.face_card_claim)
        return say(w, "V-face-card-claim: claiming a redeal is a house rule that is not in play "
                      "here");
    if (s->phase == DL_PHASE_PLAY && decision)
        return say(w, "V-face-card-claim: a redeal may be claimed only before the first card "
                      "of a deal, by a player dealt %d or more face cards",
                   s->rules.claim_faces);
    if (w->m->kind > DL_KEEP) return say(w, "%s: unknown kind of move", turn_id(s));
    if (!decision && (w->m->card >= DL_NCARDS || !(s->hand[w->seat] & DL_BIT(w->m->card))))
        return say(w, "%s: you do not hold %s", turn_id(s), w->m->card < DL_NCARDS ? w->card : "that card");
    if (w->m->take & ~(DL_DECK | DL_DECL_ITEMS))
        return say(w, "%s: the move names no such item", turn_id(s));
    if ((w->m->take & DL_DECK & ~s->loose) ||
        (decl_mask(w->m) >> s->ndecl))
        return say(w, "%s: the move names something that is not on the table", turn_id(s));
    return NULL;
}

static const char *lay_check(Why *w)
{
    const dl_State *s = w->s;
    int rank = dl_rank(w->m->card);
    if (w->m->take) return say(w, "D10: laying a card takes nothing from the table");
    if (w->own >= 0)
        return say(w, "D19: you own the %s: you may not lay a card until it is %s by someone else",
                   w->ownname, w->s->decl[w->own].kind == DL_DECL_GROUP
                                   ? "captured or added to" /* D18: never raised */
                                   : "captured, raised or added to");
    if (dl_is_face(w->m->card) && s->rules.face_lay_blocked &&
        (s->loose & dl_rank_mask(rank)))
        return say(w, "D10: a %s may not be laid while a %s lies on the table; capture it "
                      "instead", RANKNAME[rank], RANKNAME[rank]);
    if (s->rules.forced_capture && dl_can_capture(s, w->m->card))
        return say(w, "V-forced-capture: %s can capture, so it must capture (C1)", w->card);
    return NULL;
}

static const char *face_capture_check(Why *w)
{
    const dl_State *s = w->s;
    const dl_Move *m = w->m;
    int rank = dl_rank(m->card);
    dl_Set same = s->loose & dl_rank_mask(rank);
    const char *id = s->rules.capture == DL_CAPTURE_ONE ? "K2" : "D12";
    if ((m->take & ~same) != 0)
        return say(w, "%s: a %s captures only a loose %s, nothing else", id, RANKNAME[rank],
                   RANKNAME[rank]);
    if (s->rules.three_face_cards && s->rules.capture == DL_CAPTURE_MANY &&
        dl_count(same) == 3 && m->take != same)
        return say(w, "V-three-face-cards: the fourth %s takes all three %ss on the table (C2)",
                   RANKNAME[rank], RANKNAME[rank]);
    if (dl_count(m->take) > 1 && !(s->rules.three_face_cards && dl_count(same) == 3))
        return say(w, "%s: a face card takes exactly one card of its rank, never more", id);
    return NULL;
}

static const char *numeral_capture_check(Why *w)
{
    const dl_State *s = w->s;
    const dl_Move *m = w->m;
    /* (each base game's refusals cite its own rules: K2 in Kontsina) */
    const char *id = s->rules.capture == DL_CAPTURE_ONE ? "K2" : "D11";
    if (m->take & DL_FACES)
        return say(w, "%s: face cards have no value; only a face card of the same rank "
                      "takes one", id);
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        if (!(decl_mask(m) & (1u << i)) || d->value == w->v) continue;
        if (d->kind == DL_DECL_GROUP)
            return say(w, "D18: the group of %ds is captured only by a card of value %d",
                       d->value, d->value);
        if (!s->rules.liberal_capture)
            return say(w, "D11: the plain declaration of %d is captured only by a card of "
                          "value %d (counting it as a card is V-liberal-capture)",
                       d->value, d->value);
    }
    if (s->rules.capture == DL_CAPTURE_ONE)
        return say(w, "K2: a card takes exactly one combination: one card of its value, or "
                      "cards summing to %d", w->v);
    if (w->own >= 0 && !(m->take & DL_DECL_BIT(w->own)) &&
        !(w->rest & dl_value_mask(s->decl[w->own].value)))
        return say(w, "D19: you own the %s: keep a card of value %d to capture "
                      "it, or capture it now", w->ownname, s->decl[w->own].value);
    if (s->rules.forced_capture && s->rules.capture == DL_CAPTURE_MANY) {
        dl_Move t = *m;
        dl_State u = *s;
        u.rules.forced_capture = false;
        if (dl_is_legal(&u, &t))
            return say(w, "V-forced-capture: the capture must leave nothing on the table that "
                          "this %s could also take (C1)", w->card);
    }
    return say(w, "D11: the items named do not split into parts each worth %d (a loose card "
                  "of value %d, loose cards summing to %d, or a declaration of %d)",
               w->v, w->v, w->v, w->v);
}

static const char *decl_common(Why *w)
{
    const dl_State *s = w->s;
    const dl_Move *m = w->m;
    if (!s->rules.declarations) return say(w, "K2: Kontsina has no declarations");
    if (dl_is_face(m->card) || (m->take & DL_FACES))
        return say(w, "D2: face cards are never part of a declaration");
    if (m->value < 1 || m->value > 10)
        return say(w, "%s: a declaration's value is 1 to 10",
                   m->kind == DL_RAISE ? "D16" : m->kind == DL_GROUP ? "D17" : "D15");
    if (s->rules.forced_capture && dl_can_capture(s, m->card))
        return say(w, "V-forced-capture: %s can capture, so it may not declare or raise (C1)",
                   w->card);
    return NULL;
}

/* D14, asked after the move's own shape is known to be right. */
static const char *holds_check(Why *w)
{
    const dl_Move *m = w->m;
    if (!(w->rest & dl_value_mask(m->value)))
        return say(w, "D14: to declare %d you must still hold a card of value %d after "
                      "playing %s", m->value, m->value, w->card);
    return NULL;
}

/* A plain declaration or a raise whose cards make several parts of its
 * value was most likely meant as a group ("5d + 5s = 5"): say that
 * rather than that the sum is wrong. */
static const char *group_meant(Why *w, const char *id)
{
    dl_Move g = *w->m;
    g.kind = DL_GROUP;
    if (!dl_is_legal(w->s, &g)) return NULL;
    char text[120];
    dl_move_str(w->s, &g, text, sizeof text, false);
    return say(w, "%s: did you mean a group of %ds (%s)? %s", id, g.value, text,
               id[2] == '5' ? "A plain declaration is one part, so its cards add up to its value"
                            : "A raise adds your card to the declaration's value");
}

static const char *plain_check(Why *w)
{
    const dl_Move *m = w->m;
    if (w->own >= 0)
        return say(w, "D19: you own the %s: you may not make another plain "
                      "declaration (capture, or add to yours as a group)", w->ownname);
    if (!(m->take & DL_DECK))
        return say(w, "D15: a plain declaration joins your card with at least one loose card");
    int sum = w->v + dl_set_sum(m->take & DL_DECK);
    if (sum != m->value) {
        const char *e = group_meant(w, "D15");
        return e ? e : say(w, "D15: %s and those cards make %d, not %d", w->card, sum, m->value);
    }
    return NULL;
}

static const char *raise_check(Why *w)
{
    const dl_State *s = w->s;
    const dl_Move *m = w->m;
    unsigned dm = decl_mask(m);
    if (dl_count(dm) == 1 && s->decl[dl_first(dm)].owner == w->seat &&
        s->decl[dl_first(dm)].kind == DL_DECL_PLAIN)
        return say(w, "D16: you may not raise your own declaration");
    if (w->own >= 0)
        return say(w, "D19: you own the %s: you may not raise another (capture, or "
                      "add to yours as a group)", w->ownname);
    if (dl_count(dm) != 1) return say(w, "D16: a raise adds to exactly one plain declaration");
    const dl_Decl *d = &s->decl[dl_first(dm)];
    if (d->kind == DL_DECL_GROUP) return say(w, "D18: a group declaration can never be raised");
    if (d->owner == w->seat) return say(w, "D16: you may not raise your own declaration");
    if (dl_side(&s->rules, d->owner) == dl_side(&s->rules, w->seat))
        return say(w, "D16: you may not raise your partner's declaration (C9)");
    if ((m->take & DL_DECK) && !s->rules.liberal_raise)
        return say(w, "D16: a raise adds only the card from your hand (joining loose cards too "
                      "is V-liberal-raise)");
    int sum = d->value + w->v + dl_set_sum(m->take & DL_DECK);
    if (sum != m->value) {
        const char *e = group_meant(w, "D16");
        return e ? e : say(w, "D16: the declaration of %d raised with %s makes %d, not %d",
                           d->value, w->card, sum, m->value);
    }
    return NULL;
}

static const char *group_check(Why *w)
{
    const dl_State *s = w->s;
    const dl_Move *m = w->m;
    if (w->own >= 0 && !(m->take & DL_DECL_BIT(w->own)))
        return say(w, "D19: you own the %s: a new group must include it",
                   w->ownname);
    for (int i = 0; i < s->ndecl; i++) {
        const dl_Decl *d = &s->decl[i];
        if (!(decl_mask(m) & (1u << i))) continue;
        if (d->kind == DL_DECL_GROUP && d->value != m->value)
            return say(w, "D18: the group of %ds cannot become part of a group of %ds",
                       d->value, m->value);
        if (d->kind == DL_DECL_GROUP && s->rules.soy && dl_count(d->cards) == 2)
            return say(w, "V-soy: nothing may be added to the soy of %ds", d->value);
    }
    if (!m->take) return say(w, "D17: a group has at least one component besides your card");
    const char *e = holds_check(w);
    if (e) return e;
    int total = w->v + dl_set_sum(m->take & DL_DECK);
    for (int i = 0; i < s->ndecl; i++)
        if (decl_mask(m) & (1u << i)) total += s->decl[i].value;
    if (total == m->value)
        return say(w, "D17: %s and the items named make a single %d; a group needs at least "
                      "two components (add another part worth %d, or declare it plain)",
                   w->card, m->value, m->value);
    if (total % m->value != 0)
        return say(w, "D17: %s and the items named add up to %d, which does not split into "
                      "parts worth %d", w->card, total, m->value);
    if (w->v > m->value)
        return say(w, "D17: %s is worth more than %d, so it cannot be part of a group of %ds",
                   w->card, m->value, m->value);
    return say(w, "D17: %s and the items named do not make components each worth %d "
                  "(your card alone or joined with loose cards%s, the rest loose cards "
                  "summing to %d or declarations of %d)",
               w->card, m->value, " or raising an opponent's plain declaration", m->value,
               m->value);
}

const char *dl_refusal(const dl_State *s, const dl_Move *m, char *buf, size_t cap)
{
    if (dl_is_legal(s, m)) return NULL;
    Why w = {s, m, buf, cap, s->turn, dl_owned_decl(s, s->turn), 0, "", "", 0};
    if (m->card < DL_NCARDS) {
        dl_card_str(m->card, w.card, false);
        w.v = dl_value(m->card);
        w.rest = s->hand[s->turn] & ~DL_BIT(m->card);
    }
    if (w.own >= 0) {
        const dl_Decl *d = &s->decl[w.own];
        if (d->kind == DL_DECL_GROUP) snprintf(w.ownname, sizeof w.ownname, "group of %ds", d->value);
        else snprintf(w.ownname, sizeof w.ownname, "plain declaration of %d", d->value);
    }
    const char *e = phase_check(&w);
    if (e) return e;
    switch (m->kind) {
    case DL_CLAIM:
    case DL_KEEP: return say(&w, "V-face-card-claim: it is not your decision to make");
    case DL_LAY: e = lay_check(&w); break;
    case DL_CAPTURE:
        if (!m->take)
            return say(&w, "%s: a capture must take something",
                       s->rules.capture == DL_CAPTURE_ONE ? "K2" : "D11");
        e = dl_is_face(m->card) ? face_capture_check(&w) : numeral_capture_check(&w);
        break;
    default:
        if ((e = decl_common(&w))) return e;
        e = m->kind == DL_PLAIN ? plain_check(&w)
            : m->kind == DL_RAISE ? raise_check(&w) : group_check(&w);
        if (!e) e = holds_check(&w);
        break;
    }
    return e ? e : say(&w, "%s: %s cannot be played that way here", turn_id(s), w.card);
}
