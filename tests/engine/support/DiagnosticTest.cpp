#include "support/Diagnostic.h"
#include "support/RefCounted.h"

#include <gtest/gtest.h>

using namespace bs;

TEST(Diagnostic, PrintsFileLineSeverityAndMessage) {
    Diagnostic d{"split factor must be positive", SourceLocation{"ex6.py", 12}, Severity::Error};
    EXPECT_EQ(d.toString(), "ex6.py:12: error: split factor must be positive");
}

TEST(Diagnostic, LeavesOutAnUnknownLocation) {
    Diagnostic d{"no schedule", SourceLocation{}, Severity::Warning};
    EXPECT_EQ(d.toString(), "warning: no schedule");
}

TEST(Diagnostic, UserErrorTakesTheCurrentSourceLocation) {
    ScopedSourceLocation scope(SourceLocation{"a.py", 3});
    UserError error("bad thing");
    EXPECT_EQ(error.diagnostic().location.line, 3);
    EXPECT_STREQ(error.what(), "bad thing");
}

TEST(Diagnostic, ScopedSourceLocationRestoresThePreviousOne) {
    setCurrentSourceLocation(SourceLocation{"outer.py", 1});
    {
        ScopedSourceLocation scope(SourceLocation{"inner.py", 7});
        EXPECT_EQ(currentSourceLocation().file, "inner.py");
    }
    EXPECT_EQ(currentSourceLocation().file, "outer.py");
    setCurrentSourceLocation(SourceLocation{});
}

namespace {
struct Counted : RefCounted {
    explicit Counted(int* deaths) : deaths(deaths) {}
    ~Counted() override { ++*deaths; }
    int* deaths;
};
} // namespace

TEST(RefCounted, DeletesWhenTheLastHandleGoes) {
    int deaths = 0;
    {
        IntrusivePtr<Counted> a = makeIntrusive<Counted>(&deaths);
        IntrusivePtr<Counted> b = a;
        EXPECT_EQ(a->useCount(), 2);
        a = IntrusivePtr<Counted>();
        EXPECT_EQ(b->useCount(), 1);
        EXPECT_EQ(deaths, 0);
    }
    EXPECT_EQ(deaths, 1);
}
