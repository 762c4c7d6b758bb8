# Writes OUT: a C++ source holding every profile file of IN (a ;-list) as a raw string, for
# models/timing/profile.cc's builtin(). Run by models/CMakeLists.txt at build time (the profiles are
# dependencies, so editing a .txt rebuilds it).
set(body "// GENERATED from models/timing/*.txt by embed_profiles.cmake -- edit the .txt files.\n")
string(APPEND body "#include <span>\n\nnamespace tcsim::models::timing {\nstruct EmbeddedProfile {\n  const char* name;\n  const char* text;\n};\n")
set(entries "")
foreach(f ${IN})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} text)
  string(APPEND body "static const char kProfile_${name}[] = R\"tcsimprofile(${text})tcsimprofile\";\n")
  string(APPEND entries "    {\"${name}\", kProfile_${name}},\n")
endforeach()
string(APPEND body "std::span<const EmbeddedProfile> embedded_profiles() {\n  static const EmbeddedProfile k[] = {\n${entries}  };\n  return k;\n}\n}  // namespace tcsim::models::timing\n")
file(WRITE ${OUT}.tmp "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
