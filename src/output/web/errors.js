var $pErrors = 0, $pReport = null;
window.addEventListener('error', function () {
  $pErrors++;
  if ($pReport)
    $pReport();
  else
    document.getElementById('status').textContent = '$items=? errors=' + $pErrors;
});
