/* The rule configurations the soak, golden and cross-check suites sweep:
 * the base games and every variant that changes play. */
#ifndef DL_TEST_CONFIGS_H
#define DL_TEST_CONFIGS_H

#include "diloti/rules.h"

typedef struct {
    const char *name;
    dl_Rules rules;
} TestConfig;

/* Fills up to cap configurations; returns how many. */
int test_configs(TestConfig *out, int cap);

#endif
