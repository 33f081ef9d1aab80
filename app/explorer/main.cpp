// concorde-explorer: wires presets, a Session and the main window together. No logic lives here.

#include "MainWindow.h"
#include "Session.h"
#include "params/PresetLibrary.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <cstdio>
#include <cstring>

namespace {

void describeApplication() {
    QCoreApplication::setApplicationName(QStringLiteral("concorde-explorer"));
    QCoreApplication::setOrganizationName(QStringLiteral("concorde"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CONCORDE_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Concorde Explorer"));
}

void configureParser(QCommandLineParser& parser) {
    parser.setApplicationDescription(
        QStringLiteral("Interactive CPU microarchitecture exploration with analytical-ML CPI "
                       "models."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("database"),
                                 QStringLiteral("Feature database (.sqlite) to open."),
                                 QStringLiteral("[database]"));
}

// --help and --version must work without a display, and QApplication needs one.
bool wantsTextOnly(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* option : {"-h", "--help", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], option) == 0)
                return true;
    return false;
}

} // namespace

int main(int argc, char** argv) {
    if (wantsTextOnly(argc, argv)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        QCommandLineParser parser;
        configureParser(parser);
        parser.process(app); // prints and exits
        return 0;
    }

    QApplication app(argc, argv);
    describeApplication();
    QCommandLineParser parser;
    configureParser(parser);
    parser.process(app);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "concorde-explorer: expected at most one database, got %lld\n",
                     static_cast<long long>(positional.size()));
        return 2;
    }

    // Missing or malformed presets should not stop the explorer: report and go on without them.
    concorde::PresetLibrary presets;
    QString presetError;
    try {
        presets = concorde::PresetLibrary::loadDefault();
    } catch (const std::exception& error) {
        presetError = QString::fromLocal8Bit(error.what());
        std::fprintf(stderr, "concorde-explorer: presets not loaded: %s\n", error.what());
    }

    concorde::ui::Session session(concorde::CoreConfig{},
                                  concorde::ui::Session::defaultBaseline(presets));
    concorde::ui::MainWindow window(session, presets);
    window.show();

    if (!positional.isEmpty())
        window.openDatabase(positional.first());
    if (!presetError.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Presets not loaded"),
                             QObject::tr("The parameter presets could not be loaded, so the "
                                         "Presets menu is empty:\n\n%1")
                                 .arg(presetError));
    return app.exec();
}
