#include "configs.h"

#include <string.h>

static int add(TestConfig *out, int n, int cap, const char *name, const dl_Rules *r)
{
    if (n < cap) {
        out[n].name = name;
        out[n].rules = *r;
    }
    return n + 1;
}

int test_configs(TestConfig *out, int cap)
{
    dl_Rules r, base;
    int n = 0;
    dl_rules_diloti(&base);
    n = add(out, n, cap, "diloti", &base);
    r = base; r.redeal = DL_REDEAL_ANY_TRIPLE; n = add(out, n, cap, "V-redeal-any-triple", &r);
    r = base; r.three_face_cards = true; n = add(out, n, cap, "V-three-face-cards", &r);
    r = base; r.face_card_claim = true; n = add(out, n, cap, "V-face-card-claim", &r);
    r = base; r.face_card_claim = r.claim_any_deal = true; r.claim_faces = 3;
    n = add(out, n, cap, "V-face-card-claim any_deal (3 faces)", &r);
    r = base; r.dealer_peeks = true; n = add(out, n, cap, "V-dealer-peeks", &r);
    r = base; r.forced_capture = true; n = add(out, n, cap, "V-forced-capture", &r);
    r = base; r.liberal_group = true; n = add(out, n, cap, "V-liberal-group", &r);
    r = base; r.liberal_raise = true; n = add(out, n, cap, "V-liberal-raise", &r);
    r = base; r.liberal_capture = true; n = add(out, n, cap, "V-liberal-capture", &r);
    r = base; r.soy = true; n = add(out, n, cap, "V-soy", &r);
    r = base; r.xeri_last_card = false; n = add(out, n, cap, "V-no-xeri-last-card", &r);
    r = base; r.xeri_first_card = true; n = add(out, n, cap, "V-xeri-first-card", &r);
    r = base; r.redeal = DL_REDEAL_ANY_TRIPLE; r.clockwise = true;
    n = add(out, n, cap, "V-seed001", &r);
    r = base; r.liberal_group = r.liberal_raise = r.liberal_capture = r.soy = true;
    r.forced_capture = r.three_face_cards = true;
    n = add(out, n, cap, "all play variants", &r);
    dl_rules_kontsina(&r);
    n = add(out, n, cap, "kontsina", &r);
    r.match = DL_MATCH_POINTS; r.target = 21;
    n = add(out, n, cap, "kontsina to 21", &r);
    dl_rules_kontsina(&r);
    r.forced_capture = true; /* C1: there it only means "must capture" */
    n = add(out, n, cap, "kontsina, V-forced-capture", &r);
    return n;
}
