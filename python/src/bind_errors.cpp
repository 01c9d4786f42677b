// pivot::Error as the Python exception pivot.Error (a ValueError): the same message as the
// CLI prints, and the input and place in it as attributes (.source: a file or "<dict>";
// .place: a JSON pointer such as "/bodies/2/mass", or "line 3, column 7"; both "" when the
// error is not about an input).

#include "bindings.hpp"
#include "pivot/core/error.hpp"

namespace py = pybind11;

namespace pivot::python {

void bind_errors(py::module_& m) {
  static py::exception<Error> error(m, "Error", PyExc_ValueError);
  error.doc() =
      "A bad input or setting. str(e) is the message the CLI prints; e.source names the input "
      "(a file) and e.place the place in it (a JSON pointer or a line and column).";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      py::object instance = py::reinterpret_borrow<py::object>(error.ptr())(e.what());
      instance.attr("source") = e.source();
      instance.attr("place") = e.place();
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
}

}  // namespace pivot::python
