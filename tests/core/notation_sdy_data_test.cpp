// Every sharding of Shardy's reshard_to_collectives tests (tests/data) reads on its mesh
// and writes back to the same type.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <tuple>

#include "redist/core/notation/notation.hpp"

namespace redist {
namespace {

using notation::from_sdy_sharding;
using notation::parse_sdy_mesh;
using notation::to_sdy_sharding;

TEST(NotationSdy, ReadsTheShardingsOfShardysTests) {
  std::ifstream in(std::string(REDIST_SOURCE_DIR) + "/tests/data/shardy_reshard_to_collectives.json");
  ASSERT_TRUE(in.good());
  const auto data = nlohmann::json::parse(in);
  int read = 0;
  for (const auto& c : data["cases"]) {
    for (const auto& r : c["reshards"]) {
      for (const auto& [mesh_name, text, shape_text] : {std::tuple{c["src_mesh"], c["src"], c["shape"]},
                                                        std::tuple{r["mesh"], r["dst"], r["shape"]}}) {
        if (text.is_null() || mesh_name.is_null() || shape_text.is_null()) continue;
        auto mesh = parse_sdy_mesh(data["meshes"][mesh_name.get<std::string>()].get<std::string>());
        ASSERT_TRUE(mesh.ok()) << mesh_name << ": " << mesh.error().to_string();
        auto shape = notation::parse_array_shape(shape_text.get<std::string>());
        ASSERT_TRUE(shape.ok()) << shape_text;
        const std::string s = text.get<std::string>();
        auto type = from_sdy_sharding(s, *shape, mesh->mesh);
        ASSERT_TRUE(type.ok()) << c["name"] << " " << s << ": " << type.error().to_string();
        auto back = to_sdy_sharding(*type, mesh->mesh);
        ASSERT_TRUE(back.ok());
        auto again = from_sdy_sharding(*back, *shape, mesh->mesh);
        ASSERT_TRUE(again.ok()) << *back;
        EXPECT_EQ(*again, *type);
        ++read;
      }
    }
  }
  EXPECT_GT(read, 100);
}

}  // namespace
}  // namespace redist
