# Passed with -DCMAKE_PROJECT_INCLUDE=... when building against the ros-* PyPI wheels.
# Their exported CMake targets name the Python and NumPy headers of the machine that built
# them (under /opt/python/cp311-cp311). At the end of the configure step, every imported
# target gets this interpreter's headers in their place; the wheels are left untouched.
find_package(Python3 REQUIRED COMPONENTS Interpreter Development.Module NumPy)
set(COGTREE_WHEEL_PYTHON_INCLUDE "/opt/python/cp311-cp311/include/python3.11")
set(COGTREE_WHEEL_NUMPY_INCLUDE
  "/opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include")

function(cogtree_fix_wheel_python_include)
  get_property(targets DIRECTORY "${CMAKE_SOURCE_DIR}" PROPERTY IMPORTED_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(includes ${target} INTERFACE_INCLUDE_DIRECTORIES)
    if(includes)
      list(TRANSFORM includes REPLACE "^${COGTREE_WHEEL_PYTHON_INCLUDE}$" "${Python3_INCLUDE_DIRS}")
      list(TRANSFORM includes REPLACE "^${COGTREE_WHEEL_NUMPY_INCLUDE}$"
        "${Python3_NumPy_INCLUDE_DIRS}")
      set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${includes}")
    endif()
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL cogtree_fix_wheel_python_include)
