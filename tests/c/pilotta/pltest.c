#include "pilotta/pltest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pl_Rules plrules(const char *variants)
{
    pl_Rules r;
    pl_rules_default(&r);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", variants);
    for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        bool found = false;
        for (int i = 0; i < pl_nvariants; i++)
            if (strcmp(w, pl_variants[i].name) == 0) *pl_variants[i].field(&r) = true, found = true;
        if (strcmp(w, "PV-round-7") == 0) r.rounding = PL_ROUND_7, found = true;
        if (strcmp(w, "PV-round-5") == 0) r.rounding = PL_ROUND_5, found = true;
        if (strcmp(w, "PV-raw-points") == 0) r.rounding = PL_ROUND_RAW, found = true;
        if (strncmp(w, "PV-target=", 10) == 0) r.target = atoi(w + 10), found = true;
        if (!found) fail_msg("unknown house rule '%s'", w);
    }
    return r;
}

pl_State plpos(const pl_Rules *r, const char *text)
{
    pl_State s;
    char err[256];
    if (pl_position_parse(&s, r, text, 1, err, sizeof err)) fail_msg("position '%s': %s", text, err);
    return s;
}

void plplay(pl_State *s, const char *action)
{
    pl_Action a;
    char err[256];
    if (pl_action_parse(s, action, &a, err, sizeof err)) fail_msg("'%s' does not parse: %s", action, err);
    if (pl_apply(s, &a, err, sizeof err)) fail_msg("'%s' refused: %s", action, err);
}

void plplays(pl_State *s, const char *actions)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", actions);
    /* Not strtok: plplay's parser is free to use it. */
    for (char *p = buf; p && *p;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        while (*p == ' ') p++;
        if (*p) plplay(s, p);
        p = comma ? comma + 1 : NULL;
    }
}

const char *plrefusal(const pl_State *s, const char *action)
{
    static char out[300];
    pl_Action a;
    char err[256];
    if (pl_action_parse(s, action, &a, err, sizeof err)) {
        snprintf(out, sizeof out, "parse: %s", err);
        return out;
    }
    pl_State copy = *s;
    const char *why = pl_refusal(s, &a, err, sizeof err);
    if (memcmp(&copy, s, sizeof copy) != 0) fail_msg("pl_refusal changed the state");
    snprintf(out, sizeof out, "%s", why ? why : "");
    return out;
}

void assert_pl_refused(const pl_State *s, const char *action, const char *rule_id)
{
    const char *why = plrefusal(s, action);
    size_t n = strlen(rule_id);
    if (strncmp(why, rule_id, n) != 0 || why[n] != ':')
        fail_msg("'%s' should be refused with %s, got '%s'", action, rule_id, why[0] ? why : "(legal)");
    /* P51: refused means untouched by pl_apply too. */
    pl_State copy = *s;
    pl_Action a;
    char err[256];
    if (!pl_action_parse(&copy, action, &a, err, sizeof err)) {
        assert_non_null(pl_apply(&copy, &a, err, sizeof err));
        assert_memory_equal(&copy, s, sizeof copy);
    }
}

static int by_text(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

const char *pllegal(const pl_State *s)
{
    static char out[4096];
    static char texts[PL_MAX_ACTIONS][64];
    pl_ActionList l;
    int n = pl_legal(s, &l);
    for (int i = 0; i < n; i++) pl_action_str(s, &l.a[i], texts[i], sizeof texts[i], false);
    qsort(texts, (size_t)n, sizeof texts[0], by_text);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i) strcat(out, " | ");
        strcat(out, texts[i]);
    }
    return out;
}

const char *plcards(const pl_State *s)
{
    static char out[160];
    pl_set_str(pl_legal_cards(s), out, sizeof out, false);
    return out;
}

pl_Set plset(const char *cards)
{
    pl_Set out = 0;
    for (const char *p = cards; *p;) {
        int len, c;
        if (*p == ' ') {
            p++;
            continue;
        }
        c = pl_card_parse(p, &len);
        if (c < 0) fail_msg("plset: '%s' is not a card", p);
        out |= PL_BIT(c);
        p += len;
    }
    return out;
}

pl_State plbare(const pl_Rules *r, int trump, int leader, const char *trick, const char *hand)
{
    pl_State s;
    pl_state_blank(&s, r);
    s.phase = PL_PHASE_PLAY;
    s.bid = 8, s.bid_suit = (int8_t)trump, s.bidder = 0;
    s.leader[0] = (uint8_t)leader;
    for (const char *p = trick; *p;) {
        int len, c;
        if (*p == ' ') {
            p++;
            continue;
        }
        c = pl_card_parse(p, &len);
        if (c < 0) fail_msg("plbare: '%s' is not a card", p);
        s.played[s.nplayed++] = (uint8_t)c;
        p += len;
    }
    s.turn = (uint8_t)((leader + s.nplayed) & 3);
    s.hand[s.turn] = plset(hand);
    s.nplayed = (uint8_t)(s.nplayed + 4); /* in trick 2: no announcements */
    for (int i = s.nplayed - 1; i >= 4; i--) s.played[i] = s.played[i - 4];
    s.leader[1] = (uint8_t)leader;
    s.standing = PL_STANDING_NONE;
    return s;
}

pl_RoundScore plround(int bidders, int value, int mult, int tpA, int tpB, int tricksA, int dA, int dB,
                      int bA, int bB)
{
    pl_RoundScore o = {0};
    o.bidders = bidders, o.value = value, o.mult = mult;
    o.trick_points[0] = tpA, o.trick_points[1] = tpB;
    o.tricks[0] = tricksA, o.tricks[1] = 8 - tricksA;
    o.decl[0] = dA, o.decl[1] = dB;
    o.belote[0] = bA, o.belote[1] = bB;
    return o;
}
