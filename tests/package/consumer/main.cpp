// Uses every installed redist component on one reshard, so each library and what it
// links (Boost, Z3, MPI) must resolve through the installed package: synthesize (synth),
// print (plan), prove with certificates (verify, proofs), emit StableHLO (hlo), refuse a
// module that is not HLO (hlo_import), emit an MPI program (mpi_codegen) and, with
// REDIST_CONSUMER_MPI, run a plan with the MPI runtime (mpi) on a one-device mesh.
// Usage: redist_consumer <certificate dir>.

#include <cstring>
#include <iostream>
#include <string>

#include "redist/backends/hlo/emit.hpp"
#include "redist/backends/hlo/import.hpp"
#include "redist/backends/mpi/codegen.hpp"
#include "redist/core/version.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/proofs/certificate.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#ifdef REDIST_CONSUMER_MPI
#include "redist/backends/mpi/runtime.hpp"
#endif

int main(int argc, char** argv) {
  using namespace redist;
  if (argc != 2) return 2;
  const Mesh mesh = parse_mesh("{x:4, y:2}").value();
  const Plan plan =
      synthesize(mesh, parse_type("f32[{x}16, {y}8]", mesh).value(), parse_type("f32[{y}16, {x}8]", mesh).value())
          .value();
  CheckOptions options;
  options.keep_smt2 = true;
  const CheckReport report = check_plan(plan, options).value();
  const auto certificates = write_certificates(argv[1], plan, report).value();
  const std::string stablehlo = hlo::emit_stablehlo(plan).value();
  const std::string program = mpi::emit_program(plan).value();
  std::cout << "redist " << version_string << "\n"
            << to_string(plan) << "verified: " << (report.verified() ? "yes" : "no") << "\n"
            << "certificates: " << certificates.size() << "\n"
            << "stablehlo all_to_all: " << (stablehlo.find("all_to_all") != std::string::npos ? "yes" : "no") << "\n"
            << "hlo import refuses: " << (import_hlo("not a module") ? "no" : "yes") << "\n"
            << "mpi program main: " << (program.find("int main") != std::string::npos ? "yes" : "no") << "\n";
#ifdef REDIST_CONSUMER_MPI
  // One rank, one device: the plan from f32[{x}4] to f32[4] keeps the four elements.
  MPI_Init(&argc, &argv);
  {
    const Mesh one = parse_mesh("{x:1}").value();
    const Plan gather = synthesize(one, parse_type("f32[{x}4]", one).value(), parse_type("f32[4]", one).value()).value();
    const float data[4] = {1, 2, 3, 4};
    auto executor = mpi::Executor::create(gather, MPI_COMM_SELF, mpi::native_format(ElemType::f32)).value();
    const auto out = executor.run(mpi::copy_to_buffer(data, sizeof data)).value();
    const bool same = out.size() == sizeof data && std::memcmp(out.data(), data, sizeof data) == 0;
    std::cout << "mpi runtime: " << (same ? "ran" : "wrong result") << "\n";
  }  // the executor frees its communicators before MPI_Finalize
  MPI_Finalize();
#endif
  return report.verified() ? 0 : 1;
}
