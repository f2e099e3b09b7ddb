/* The first examples, to show how the suites read. */
#include "testutil.h"

/* RULES.md example 1 (D11): an 8 takes 8, 5+3 and 6+2 at once. */
static void test_D11_example1_many_parts(void **state)
{
    (void)state;
    dl_Rules r = diloti_rules();
    dl_State s = pos(&r, "hands=8h 2d / 9c; table=8c 6d 5s 3h 2c");
    assert_true(legal(&s, "8h x 8c 6d 5s 3h 2c"));
    assert_true(legal(&s, "8h x 5s 3h"));
    assert_false(legal(&s, "8h x 6d 5s"));
    assert_refused(&s, "8h x 6d 5s", "D11");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_D11_example1_many_parts),
    };
    return cmocka_run_group_tests_name("smoke", tests, NULL, NULL);
}
