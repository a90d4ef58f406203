// The reports' escaping layer (loophole/reports/escape.hpp) on hostile
// strings: each target's function leaves no byte that its language would
// read as markup, and every output is valid UTF-8.
#include "loophole/reports/escape.hpp"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace loophole::reports {
namespace {

const std::string fffd = "\xEF\xBF\xBD";

// Whether `s` is well-formed UTF-8, by a check of its own: the one in
// escape.cpp must not be what tests itself.
bool well_formed(const std::string& s) {
  try {
    return nlohmann::json::parse(nlohmann::json(s).dump()).is_string();
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

TEST(Escape, ValidUtf8ReplacesEachBadByte) {
  EXPECT_EQ(valid_utf8("plain · text €"), "plain · text €");
  EXPECT_EQ(valid_utf8("a\xff"
                       "b"),
            "a" + fffd + "b");
  EXPECT_EQ(valid_utf8("\xc0\xaf"), fffd + fffd);                        // overlong '/'
  EXPECT_EQ(valid_utf8("\xed\xa0\x80"), fffd + fffd + fffd);             // a surrogate
  EXPECT_EQ(valid_utf8("\xf4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // above U+10FFFF
  EXPECT_EQ(valid_utf8("\xe2\x82"), fffd + fffd);                        // cut short at the end
  EXPECT_EQ(valid_utf8("\xf0\x9f\x83\x8f"), "\xf0\x9f\x83\x8f");         // a playing card
  for (int b = 0x80; b <= 0xff; ++b) {
    const std::string s = "x" + std::string(1, static_cast<char>(b)) + "y";
    EXPECT_TRUE(well_formed(valid_utf8(s))) << b;
  }
}

TEST(Escape, XmlLeavesNoMarkup) {
  const std::string hostile = "</testcase><script>alert(\"x\")</script>&amp;'\x01\x1b\xff";
  const std::string out = xml_escape(hostile);
  EXPECT_EQ(out,
            "&lt;/testcase&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;&#39;" +
                fffd + fffd + fffd);
  EXPECT_EQ(xml_escape("tab\tand\nnewline"), "tab\tand\nnewline");
  EXPECT_EQ(xml_escape("\xc2\x85"), fffd);  // NEL, a C1 control
}

TEST(Escape, MarkdownTextIsPlainText) {
  EXPECT_EQ(markdown_text("'action_phase · actions'"), "'action\\_phase · actions'");
  const std::string out =
      markdown_text("</details><img src=x onerror=alert(1)> @everyone [x](javascript:y) | *b*");
  EXPECT_EQ(out,
            "&lt;/details&gt;&lt;img src=x onerror=alert(1)&gt; &#64;everyone "
            "\\[x\\](javascript:y) \\| \\*b\\*");
  EXPECT_EQ(out.find('<'), std::string::npos);
  EXPECT_EQ(markdown_text("two\nlines\x1b"), "two lines ");
}

TEST(Escape, MarkdownCodeCannotBeClosedFromInside) {
  EXPECT_EQ(markdown_code("rules.yaml:3:4"), "`rules.yaml:3:4`");
  EXPECT_EQ(markdown_code("a`b"), "`` a`b ``");
  EXPECT_EQ(markdown_code("```x``"), "```` ```x`` ````");
  EXPECT_EQ(markdown_code("new\nline"), "`new line`");
  EXPECT_EQ(markdown_fence("no ticks"), "```");
  EXPECT_EQ(markdown_fence("a ````` run"), "``````");
}

TEST(Escape, UriReferenceCannotAddASchemeQueryOrFragment) {
  EXPECT_EQ(uri_reference("rulesets/cosmere.yaml"), "rulesets/cosmere.yaml");
  EXPECT_EQ(uri_reference("javascript:alert(1)#x?y=%z.yaml"),
            "javascript%3Aalert%281%29%23x%3Fy%3D%25z.yaml");
  EXPECT_EQ(uri_reference("a b/\xc3\xb6\xff.yaml"), "a%20b/%C3%B6%FF.yaml");
}

TEST(Escape, JsonDumpRepairsInsteadOfThrowing) {
  const nlohmann::json j{{"file", "bad\xff.yaml"}, {"game", "\x1b[31m"}};
  const std::string out = json_dump(j);
  EXPECT_TRUE(well_formed(out));
  const auto back = nlohmann::json::parse(out);
  EXPECT_EQ(back["file"], "bad" + fffd + ".yaml");
  EXPECT_EQ(back["game"], "\x1b[31m");  // JSON escapes it as \u001b
  EXPECT_NE(out.find("\\u001b[31m"), std::string::npos);
}

}  // namespace
}  // namespace loophole::reports
