def pytest_configure(config):
    config.addinivalue_line("markers", "long: MobileNetV2-sized case, run by scripts/long-tests.sh (ctest -L long)")
