import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "long: MobileNetV2-sized case, run by scripts/long-tests.sh (ctest -L long)")


@pytest.fixture(scope="session")
def mobilenet_v2_onnx(tmp_path_factory):
    """torchvision's MobileNetV2 (untrained, seed 0) exported to ONNX opset 13; skips without torch."""
    torch = pytest.importorskip("torch")
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    net = torchvision.models.mobilenet_v2(weights=None).eval()
    path = tmp_path_factory.mktemp("mobilenet_v2") / "mobilenet_v2.onnx"
    torch.onnx.export(net, torch.randn(1, 3, 224, 224), str(path), opset_version=13, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    return path
