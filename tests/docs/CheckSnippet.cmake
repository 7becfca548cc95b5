# cmake -DSOURCE=example.cpp -DDOC=docs/x.md -P CheckSnippet.cmake
# The lines of SOURCE between "// [<doc name>]" and "// [/<doc name>]" must appear in DOC as
# they are: a document's example is the program ctest builds and runs.
get_filename_component(doc_name ${DOC} NAME)
file(READ ${SOURCE} source)
string(FIND "${source}" "// [docs/${doc_name}]\n" begin)
string(FIND "${source}" "// [/docs/${doc_name}]" end)
if(begin EQUAL -1 OR end EQUAL -1)
  message(FATAL_ERROR "${SOURCE} has no lines marked // [docs/${doc_name}] ... // [/docs/${doc_name}]")
endif()
string(LENGTH "// [docs/${doc_name}]\n" marker)
math(EXPR begin "${begin} + ${marker}")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${source}" ${begin} ${length} snippet)
file(READ ${DOC} doc)
string(FIND "${doc}" "${snippet}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "${DOC} does not hold the example of ${SOURCE} as it is: copy the lines "
                      "between its markers into the document")
endif()
message("${DOC} holds the example of ${SOURCE}")
