// pivot.lcp.solve: Lemke's method on NumPy arrays (docs/python.md, docs/lcp.md). Find z ≥ 0
// with w = M z + q ≥ 0 and zᵀw = 0; the answer is reported solved only after the residual
// check.

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "pivot/lcp/lemke.hpp"

namespace py = pybind11;

namespace pivot::python {

void bind_lcp(py::module_& m) {
  py::module_ lcp = m.def_submodule("lcp", "the LCP solver on its own");
  lcp.def(
      "solve",
      [](const Eigen::MatrixXd& M, const Eigen::VectorXd& q, long max_pivots) {
        lcp::LemkeOptions options;
        if (max_pivots > 0) options.max_pivots = static_cast<int>(max_pivots);
        lcp::LcpResult r;
        {
          py::gil_scoped_release release;
          r = lcp::solve_lemke(lcp::LcpProblem{M, q, "python"}, options);
        }
        py::dict d;
        d["status"] = lcp::to_string(r.status);
        d["ok"] = r.ok();
        d["z"] = r.z;
        d["w"] = r.w;
        d["pivots"] = r.pivots;
        d["attempt"] = lcp::attempt_name(r);
        d["min_z"] = r.residuals.min_z;
        d["min_w"] = r.residuals.min_w;
        d["max_complementarity"] = r.residuals.max_complementarity;
        d["rounding_share"] = r.residuals.rounding_share;
        d["message"] = r.message;
        return d;
      },
      py::arg("M"), py::arg("q"), py::arg("max_pivots") = 0,
      "Lemke's method with the lexico-minimum ratio test; returns a dict: status "
      "(\"solved\", \"ray_termination\", ...), ok, z, w, pivots, attempt, residuals, message");
}

}  // namespace pivot::python
