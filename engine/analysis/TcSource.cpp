#include "analysis/TcSource.h"

namespace bs {

bool isTcFileName(const std::string& fileName) {
    return fileName.size() > 3 && fileName.compare(fileName.size() - 3, 3, ".tc") == 0;
}

Program tcSourceProgram(const std::string& source, const std::string& fileName) {
    auto built =
        std::make_shared<const tc::TcProgram>(tc::buildTc(source, tc::TcOptions{{}, fileName}));
    Schedule sch = tc::defaultSchedule(*built);
    Program program{sch, defaultArguments(sch), false};
    program.tcPrograms.push_back(std::move(built));
    return program;
}

} // namespace bs
